# frozen_string_literal: true

require 'ffi'
require_relative 'version'
require_relative 'errors'
require_relative 'handle'
require_relative 'wire'

module Libhiera
  # The C ABI of libhiera (`include/hiera.h`), attached with the ffi gem.
  # There is no C extension: JRuby (Puppet Server) loads this too.
  #
  # The shared library is found in this order:
  # 1. the `LIBHIERA_PATH` environment variable (the library file, or a
  #    directory holding `libhiera.so`); when it is set, nothing else is tried;
  # 2. the copy bundled in the gem (`lib/libhiera/libhiera.so`, put there by
  #    `gem build` when present);
  # 3. the system library path (`libhiera.so.0`, then `libhiera.so`).
  module Native
    extend FFI::Library

    OK = 0
    NOT_FOUND = 1
    ERROR = 2
    NULL_ARGUMENT = 3
    INVALID_ARGUMENT = 4
    PANIC = 5

    LIBNAME = "libhiera.#{FFI::Platform::LIBSUFFIX}"

    # The library files to try, in order.
    def self.candidates
      env = ENV['LIBHIERA_PATH']
      unless env.nil? || env.empty?
        return [File.directory?(env) ? File.join(env, LIBNAME) : env]
      end

      bundled = File.expand_path(LIBNAME, __dir__)
      list = []
      list << bundled if File.file?(bundled)
      list << "libhiera.#{FFI::Platform::LIBSUFFIX}.#{ABI_VERSION}" if FFI::Platform::LIBSUFFIX == 'so'
      list << 'hiera'
      list
    end

    begin
      ffi_lib(candidates)
    rescue LoadError => e
      raise LibraryError.new(
        "libhiera: cannot load the shared library (tried #{candidates.join(', ')}): #{e.message}. " \
        'Set LIBHIERA_PATH to the libhiera.so to use.', kind: 'library'
      )
    end

    # The file the library was loaded from.
    def self.path
      ffi_libraries.first.name
    end

    attach_function :hiera_version, [], :string
    attach_function :hiera_abi_version, [], :uint32

    loaded_abi = hiera_abi_version
    unless loaded_abi == ABI_VERSION
      raise LibraryError.new(
        "libhiera: #{path} has ABI version #{loaded_abi}, this gem (#{VERSION}) needs ABI version #{ABI_VERSION}",
        kind: 'library'
      )
    end

    attach_function :hiera_string_free, [:pointer], :void
    attach_function :hiera_open, %i[string pointer pointer], :int
    attach_function :hiera_free, [:pointer], :void
    attach_function :hiera_session_new, %i[pointer string pointer pointer], :int
    attach_function :hiera_session_new_with, %i[pointer string string pointer pointer], :int
    attach_function :hiera_session_overlay, %i[pointer string string pointer pointer], :int
    attach_function :hiera_session_free, [:pointer], :void
    # No callbacks into Ruby can happen in these: they run without the GVL
    # (MRI), so Ruby threads look up in parallel.
    attach_function :hiera_lookup, %i[pointer pointer pointer], :int, blocking: true
    # The same function, the request passed as a Ruby String: no copy into a
    # MemoryPointer on MRI (ffi passes the String's own NUL-terminated bytes,
    # refusing a NUL inside with an ArgumentError; the String is referenced
    # by the caller's frame for the call). Session#lookup's requests are JSON
    # text, which never holds a raw NUL.
    attach_function :hiera_lookup_text, :hiera_lookup, %i[pointer string pointer], :int, blocking: true
    # A key alone (`{"key": K}`), its bytes passed as they are: no request
    # to build or parse, and a NUL inside the key is fine.
    attach_function :hiera_lookup_key, %i[pointer buffer_in size_t pointer], :int, blocking: true
    attach_function :hiera_lookup_many, %i[pointer pointer pointer], :int, blocking: true
    attach_function :hiera_lookup_keys, %i[pointer string string pointer], :int, blocking: true
    attach_function :hiera_lookup_all, %i[pointer pointer], :int, blocking: true
    attach_function :hiera_parse_data, %i[string string buffer_in size_t pointer], :int

    # A configuration whose lookups call back into Ruby (`hiera_host`):
    # its lookups keep the GVL (ffi would otherwise have to take it back in
    # each callback).
    callback :hiera_call_fn, %i[pointer string pointer], :void
    callback :hiera_warn_fn, %i[pointer string], :void
    callback :hiera_release_fn, %i[pointer], :void

    # `hiera_host`.
    class HieraHost < FFI::Struct
      layout :user_data, :pointer,
             :call, :hiera_call_fn,
             :warn, :hiera_warn_fn,
             :release, :hiera_release_fn
    end

    attach_function :hiera_open_with_host, %i[string pointer pointer pointer], :int
    attach_function :hiera_answer_value, %i[pointer string], :int
    attach_function :hiera_answer_error, %i[pointer string], :int
    attach_function :hiera_lookup_text_host, :hiera_lookup, %i[pointer string pointer], :int
    attach_function :hiera_lookup_key_host, :hiera_lookup_key, %i[pointer buffer_in size_t pointer], :int
    attach_function :hiera_lookup_host, :hiera_lookup, %i[pointer pointer pointer], :int
    attach_function :hiera_lookup_many_host, :hiera_lookup_many, %i[pointer pointer pointer], :int
    attach_function :hiera_lookup_all_host, :hiera_lookup_all, %i[pointer pointer], :int
    attach_function :hiera_lookup_keys_host, :hiera_lookup_keys, %i[pointer string string pointer], :int

    # Hiera 3. These call back into Ruby: they keep the GVL.
    callback :hiera3_lookup_fn, %i[pointer string string pointer], :void
    callback :hiera3_scope_fn, %i[pointer string pointer], :void

    # `hiera3_host`.
    class Host < FFI::Struct
      layout :user_data, :pointer,
             :lookup, :hiera3_lookup_fn,
             :scope, :hiera3_scope_fn
    end

    attach_function :hiera3_answer_value, %i[pointer string], :int
    attach_function :hiera3_answer_error, %i[pointer string], :int
    attach_function :hiera3_answer_seen, %i[pointer string], :int
    attach_function :hiera3_merge_answer, %i[string string string string pointer], :int
    attach_function :hiera3_parse_answer, %i[string string string pointer pointer pointer], :int
    attach_function :hiera3_parse_string, %i[string string string pointer pointer pointer], :int
    attach_function :hiera3_datasources, %i[string string string pointer pointer], :int
    attach_function :hiera3_open, %i[string pointer pointer], :int
    attach_function :hiera3_free, [:pointer], :void
    attach_function :hiera3_lookup, %i[pointer string pointer pointer pointer], :int

    # Releasers for FFI::AutoPointer: module-level, capturing no object, and
    # never raising (the library's destructors catch their own panics).
    FREE_HIERA = lambda do |ptr|
      hiera_free(ptr)
    rescue StandardError
      nil
    end
    FREE_SESSION = lambda do |ptr|
      hiera_session_free(ptr)
    rescue StandardError
      nil
    end
    FREE_HIERA3 = lambda do |ptr|
      hiera3_free(ptr)
    rescue StandardError
      nil
    end

    # Reads the string an out-parameter holds, frees it, and returns it
    # (UTF-8); nil for NULL.
    def self.take(out)
      ptr = out.read_pointer
      return nil if ptr.null?

      begin
        ptr.read_string.force_encoding(Encoding::UTF_8)
      ensure
        hiera_string_free(ptr)
      end
    end

    OUT = :__libhiera_out

    # An out-parameter (`char **`) for one call, reused by the calling fiber
    # (Thread#[] is fiber-local, and nothing else runs on a fiber during a
    # call). It may hold what an earlier call wrote: read it with
    # {take_written}.
    def self.out_pointer
      Thread.current[OUT] ||= FFI::MemoryPointer.new(:pointer)
    end

    # {take} for an out-parameter of `hiera_lookup`, which writes it (NULL
    # or a string) unless the status is HIERA_NULL_ARGUMENT or HIERA_PANIC.
    def self.take_written(status, out)
      status == NULL_ARGUMENT || status == PANIC ? nil : take(out)
    end

    # The exception for a failed call: `status` and the error object text.
    def self.error(status, text)
      case status
      when NULL_ARGUMENT
        InvalidArgumentError.new('libhiera: a required argument was NULL', kind: 'invalid_argument')
      when PANIC
        PanicError.new('libhiera: an internal error (a panic) was caught; see stderr', kind: 'panic')
      else
        object = begin
          text ? JSON.parse(text) : {}
        rescue JSON::ParserError
          { 'message' => text }
        end
        Libhiera.error_from(object)
      end
    end

    # Runs a constructor (`hiera_open`, `hiera_session_new`, `hiera3_open`):
    # yields its two out-parameters (the handle, the error object) and
    # returns the new handle as a {Handle} freed with `releaser`, or raises
    # the error.
    def self.make(releaser)
      out = FFI::MemoryPointer.new(:pointer)
      err = FFI::MemoryPointer.new(:pointer)
      status = yield out, err
      raise error(status, take(err)) unless status == OK

      Handle.new(out.read_pointer, releaser)
    end

    # What a lookup's answer means: the value (`HIERA_OK`), `default`
    # (`HIERA_NOT_FOUND`), or the error, raised.
    def self.answer(status, text, default)
      case status
      when OK then Wire.load(text)
      when NOT_FOUND then default
      else raise error(status, text)
      end
    end

    # A C string argument: a NUL byte inside is refused (C would stop there).
    def self.cstr(s)
      raise InvalidArgumentError.new('libhiera: string argument contains a NUL byte', kind: 'invalid_argument') if s.include?("\0")

      s
    end
  end
end
