# frozen_string_literal: true

require 'json'
require_relative '../libhiera'

module Libhiera
  # Hiera 3 (the standalone hiera 3.10 gem) through libhiera:
  #
  # - `Libhiera::Hiera3.new(config: 'hiera.yaml').lookup(key, default, scope,
  #   order_override, resolution_type)`: `Hiera#lookup` with the yaml and
  #   json backends, in Rust;
  # - the `libhiera` Hiera 3 backend (`Hiera::Backend::Libhiera_backend`,
  #   `:backends: [libhiera]`);
  # - {Hiera3.accelerate!}: `Hiera::Backend.merge_answer`, `parse_answer`
  #   and `parse_string` replaced by the Rust helpers (same signatures, same
  #   results), so that existing custom backends run unchanged, faster.
  #
  # The Ruby gem's `Hiera::Backend.lookup` answers `%{hiera('k')}` and
  # `%{alias('k')}`, and the scope (a Hash or Puppet's `Hiera::Scope`) answers
  # variables: libhiera calls back into Ruby for both, on the calling
  # thread. An exception raised there comes out of the helper as itself.
  class Hiera3
    # The state of one call into libhiera, for the callbacks it makes.
    # @api private
    class Call
      attr_reader :scope, :context, :memo
      attr_accessor :error

      def initialize(scope, context)
        @scope = scope
        @context = context
        @memo = {}
        @error = nil
      end
    end

    # The callbacks and the per-thread stack of calls they serve.
    # @api private
    module Host
      STACK = :__libhiera_hiera3_calls

      module_function

      def current
        Thread.current[STACK]&.last
      end

      # Runs `block` with a new Call on this thread's (fiber's) stack.
      def with_call(scope, context)
        stack = (Thread.current[STACK] ||= [])
        call = Call.new(scope, context)
        stack.push(call)
        begin
          yield call
        ensure
          stack.pop
        end
      end

      # Runs a callback body so that nothing unwinds into libhiera: an
      # exception is kept for the caller to re-raise and reported as the
      # answer's error; a `throw` (which `rescue` does not see) is stopped
      # by the `return` in `ensure`.
      def guarded(answer)
        call = current
        done = false
        begin
          yield call
          done = true
        rescue Exception => e # rubocop:disable Lint/RescueException -- re-raised by the caller
          done = true
          call.error = e if call
          Native.hiera3_answer_error(answer, e.message.to_s.delete("\0"))
        ensure
          unless done
            e = Libhiera::Error.new('libhiera: a Hiera 3 callback left with throw; it was stopped', kind: 'lookup')
            call.error = e if call
            Native.hiera3_answer_error(answer, e.message)
            return # rubocop:disable Lint/EnsureReturn -- stops the throw at the FFI boundary
          end
        end
      end

      def lookup(key, context_json, answer)
        guarded(answer) do |call|
          require 'hiera'
          ctx = JSON.parse(context_json)
          guard = ::Hiera::RecursiveGuard.new
          guard.instance_variable_set(:@seen, ctx['seen'] || [])
          oo = Wire.decode(ctx['order_override'])
          begin
            value =
              if ctx['config']
                # From a hiera.yaml entry: nested entries share this context,
                # as the gem's @config_lookup_context.
                config = { is_interpolate_config: true, order_override: oo, recurse_guard: guard }
                Hiera3.with_config_context(config) do
                  ::Hiera::Backend.lookup(key, nil, call.scope, oo, :priority, config.clone)
                end
              else
                context = call.context.is_a?(Hash) ? call.context.clone : {}
                context[:recurse_guard] = guard
                context[:order_override] = oo
                ::Hiera::Backend.lookup(key, nil, call.scope, oo, :priority, context)
              end
          ensure
            # What the lookup left on the shared guard, also when it raised.
            Native.hiera3_answer_seen(answer, JSON.generate(guard.instance_variable_get(:@seen)))
          end
          Native.hiera3_answer_value(answer, Native.cstr(Wire.dump(value)))
        end
      end

      def scope(name, answer)
        guarded(answer) do |call|
          json = call.memo.fetch(name) do
            s = call.scope
            call.memo[name] = s.include?(name) ? Native.cstr(Wire.dump(s[name])) : false
          end
          Native.hiera3_answer_value(answer, json) if json
        end
      end

      LOOKUP = FFI::Function.new(:void, %i[pointer string string pointer]) do |_user_data, key, context_json, answer|
        Host.lookup(key.force_encoding(Encoding::UTF_8), context_json, answer)
      end

      SCOPE = FFI::Function.new(:void, %i[pointer string pointer]) do |_user_data, name, answer|
        Host.scope(name.force_encoding(Encoding::UTF_8), answer)
      end

      def make(lookup, scope)
        h = Native::Host.new
        h[:user_data] = nil
        h[:lookup] = lookup if lookup
        h[:scope] = scope if scope
        h
      end

      # Both callbacks.
      FULL = make(LOOKUP, SCOPE)
      # Only lookups (the scope goes as JSON).
      LOOKUP_ONLY = make(LOOKUP, nil)

      # A small Hash scope goes to libhiera as JSON (cheaper than asking for
      # each variable); a large one or a scope object (Puppet's
      # Hiera::Scope) is asked variable by variable.
      SMALL_SCOPE = 64

      # [scope_json or nil, the host to use] for a scope.
      def scope_for(scope, lookups: true)
        if scope.instance_of?(Hash) && scope.size <= SMALL_SCOPE
          [Native.cstr(Wire.dump(scope)), lookups ? LOOKUP_ONLY : nil]
        else
          [nil, lookups ? FULL : SCOPE_ONLY]
        end
      end
      # Only the scope (the engine answers its own nested lookups).
      SCOPE_ONLY = make(nil, SCOPE)
    end

    # Runs `block` with the gem's `@config_lookup_context` set to `config`.
    # @api private
    def self.with_config_context(config)
      backend = ::Hiera::Backend
      saved = backend.instance_variable_get(:@config_lookup_context)
      backend.instance_variable_set(:@config_lookup_context, config)
      begin
        yield
      ensure
        backend.instance_variable_set(:@config_lookup_context, saved)
      end
    end

    # Whether a scope can be asked for variables as the gem asks it
    # (`include?` and `[]`).
    # @api private
    def self.scope_like?(scope)
      !scope.nil? && scope.respond_to?(:[]) && scope.respond_to?(:include?) &&
        !scope.instance_of?(Array) && !scope.instance_of?(String)
    end

    # The recursion guard's list of a gem context, if it has a guard.
    # @api private
    def self.seen_of(context)
      guard = context.is_a?(Hash) ? context[:recurse_guard] : nil
      seen = guard&.instance_variable_get(:@seen)
      seen.is_a?(Array) ? seen : nil
    end

    # Reads and frees `count` consecutive out-parameters.
    # @api private
    def self.take_all(out, count)
      Array.new(count) { |i| Native.take(out + (i * FFI::Pointer.size)) }
    end

    # ------------------------------------------------------------------
    # The helpers

    # `Backend.merge_answer(left, right, resolution_type)` in Rust. `config`
    # is the Hiera 3 configuration Hash (only `:merge_behavior` and
    # `:deep_merge_options` are read, for a resolution type that is not a
    # Hash); by default the loaded `Hiera::Config`'s. Raises a
    # {Libhiera::Error} on failure.
    def self.merge_answer(left, right, resolution_type = nil, config = nil)
      status, text = native_merge(left, right, resolution_type, config)
      raise Native.error(status, text) unless status == Native::OK

      Wire.load(text)
    end

    # @api private
    def self.native_merge(left, right, resolution_type, config)
      config ||= current_config
      cfg = config.is_a?(Hash) ? { merge_behavior: config[:merge_behavior], deep_merge_options: config[:deep_merge_options] } : {}
      out = FFI::MemoryPointer.new(:pointer)
      status = Native.hiera3_merge_answer(
        Native.cstr(Wire.dump(left, strict: true)), Native.cstr(Wire.dump(right, strict: true)),
        Native.cstr(Wire.dump(resolution_type.is_a?(Hash) ? resolution_type : nil, strict: true)),
        Native.cstr(Wire.dump(cfg, strict: true)), out
      )
      [status, Native.take(out)]
    end

    # The loaded Hiera 3 configuration, if the hiera gem is loaded.
    # @api private
    def self.current_config
      return nil unless defined?(::Hiera::Config)

      ::Hiera::Config.instance_variable_get(:@config)
    end

    # `Backend.parse_answer(data, scope, extra_data, context)` in Rust.
    # `%{hiera('k')}` calls `Hiera::Backend.lookup`; the scope is asked for
    # the variables it uses. Raises what the callbacks raised, or a
    # {Libhiera::Error}.
    def self.parse_answer(data, scope, extra_data = {}, context = { recurse_guard: nil, order_override: nil })
      status, value = native_parse(data, scope, extra_data, context, true, keep_guard: true)
      raise value unless status == :ok

      value
    end

    # `Backend.parse_string(data, scope, extra_data, context)` in Rust.
    def self.parse_string(data, scope, extra_data = {}, context = { recurse_guard: nil, order_override: nil })
      status, value = native_parse(data, scope, extra_data, context, false, keep_guard: true)
      raise value unless status == :ok

      value
    end

    # [:ok, value] or [:error, exception]; an exception a callback raised
    # is raised. The context's guard gets what the interpolation left on it
    # when the call succeeds or a callback raised, and with `keep_guard`
    # also when the interpolation failed (without it the caller runs the
    # gem's code on the untouched guard).
    # @api private
    def self.native_parse(data, scope, extra_data, context, whole, keep_guard: false)
      ctx = {
        'order_override' => Wire.prepare(context.is_a?(Hash) ? context[:order_override] : nil),
        'extra_data' => Wire.prepare(extra_data, true),
      }
      seen = seen_of(context)
      ctx['seen'] = seen if seen
      data_json = Native.cstr(Wire.dump(data, strict: true))
      ctx_json = Native.cstr(JSON.generate(ctx))
      scope_json, host = Host.scope_for(scope)
      out = FFI::MemoryPointer.new(:pointer, 2)
      Host.with_call(scope, context) do |call|
        status = if whole
                   Native.hiera3_parse_answer(data_json, scope_json, ctx_json, host, out, out + FFI::Pointer.size)
                 else
                   Native.hiera3_parse_string(data_json, scope_json, ctx_json, host, out, out + FFI::Pointer.size)
                 end
        text, guard = take_all(out, 2)
        failed = status != Native::OK && call.error.nil?
        seen.replace(JSON.parse(guard)) if seen && guard && (keep_guard || !failed)
        raise call.error if call.error

        return [:ok, Wire.load(text)] if status == Native::OK

        [:error, Native.error(status, text)]
      end
    end

    # `Backend.datasources(scope, override, hierarchy)` in Rust: the list of
    # sources.
    def self.datasources(scope, override = nil, hierarchy = nil)
      out = FFI::MemoryPointer.new(:pointer)
      scope_json, host = Host.scope_for(scope)
      Host.with_call(scope, nil) do |call|
        status = Native.hiera3_datasources(Native.cstr(Wire.dump(hierarchy, strict: true)), scope_json,
                                           Native.cstr(Wire.dump(override, strict: true)), host, out)
        text = Native.take(out)
        raise call.error if call.error
        raise Native.error(status, text) unless status == Native::OK

        Wire.load(text)
      end
    end

    # ------------------------------------------------------------------
    # Acceleration of Hiera::Backend

    @accelerated = false

    class << self
      # Whether {accelerate!} is in effect.
      def accelerated?
        @accelerated
      end

      # Replaces `Hiera::Backend.merge_answer`, `parse_answer` and
      # `parse_string` with the Rust helpers (same signatures, same
      # results). Loads the hiera gem. Inputs the Rust helpers do not take
      # (a scope that is not hash-like, values the wire cannot carry) and
      # errors that do not come from a callback go to the gem's own code,
      # so results and exceptions stay the gem's.
      def accelerate!
        require 'hiera'
        require 'hiera/backend'
        ::Hiera::Backend.singleton_class.prepend(Acceleration) unless ::Hiera::Backend.singleton_class < Acceleration
        @accelerated = true
        self
      end

      # Undoes {accelerate!} (the gem's methods run again).
      def decelerate!
        @accelerated = false
        self
      end
    end

    # Prepended to `Hiera::Backend`'s singleton class by {accelerate!}.
    # @api private
    module Acceleration
      def merge_answer(left, right, resolution_type = nil)
        return super unless Hiera3.accelerated? && left.instance_of?(Hash) && right.instance_of?(Hash)

        begin
          status, text = Hiera3.native_merge(left, right, resolution_type, nil)
        rescue Wire::Unrepresentable
          return super
        end
        # Errors: the gem's own code raises exactly what the gem raises.
        return super unless status == Native::OK

        merged = Wire.load(text)
        behavior = resolution_type.is_a?(Hash) ? resolution_type[:behavior] : ::Hiera::Config[:merge_behavior]
        if [:deeper, 'deeper', :deep, 'deep'].include?(behavior)
          # deeper_merge! and deeper_merge (deep_merge's rails_compat) both
          # merge into `left` and return it.
          left.replace(merged)
        else
          merged
        end
      end

      def parse_answer(data, scope, extra_data = {}, context = { recurse_guard: nil, order_override: nil })
        return super unless Hiera3.accelerated? && (data.instance_of?(Hash) || data.instance_of?(Array) ||
                                                    (data.instance_of?(String) && data.include?('%{')))

        Hiera3.accelerated_parse(data, scope, extra_data, context, true) { super }
      end

      def parse_string(data, scope, extra_data = {}, context = { recurse_guard: nil, order_override: nil })
        return super unless Hiera3.accelerated? && data.instance_of?(String) && data.include?('%{')

        Hiera3.accelerated_parse(data, scope, extra_data, context, false) { super }
      end
    end

    # @api private
    def self.accelerated_parse(data, scope, extra_data, context, whole)
      return yield unless scope_like?(scope) && extra_data.instance_of?(Hash) && (context.nil? || context.is_a?(Hash))

      begin
        status, value = native_parse(data, scope, extra_data, context || {}, whole)
      rescue Wire::Unrepresentable
        return yield
      end
      return value if status == :ok

      # An error of the interpolation itself: the gem's code raises exactly
      # the gem's exception (and leaves its guard as the gem leaves it).
      yield
    end

    # ------------------------------------------------------------------
    # The engine

    # Opens a Hiera 3 configuration: `config` is the path of a hiera.yaml
    # (read as `Hiera.new(config: path)` reads it) or the configuration Hash
    # itself (Symbol keys, merged over the gem's defaults). `cwd`: where
    # relative paths are taken from (default: the working directory at
    # lookup time). Raises a {Libhiera::Error} with the gem's message.
    def initialize(config: '/etc/puppet/hiera.yaml', cwd: nil)
      options = config.is_a?(Hash) ? { 'config' => Wire.prepare(config) } : { 'config_file' => config.to_s }
      options['cwd'] = cwd.to_s if cwd
      json = Native.cstr(JSON.generate(options))
      @handle = Native.make(Native::FREE_HIERA3) { |out, err| Native.hiera3_open(json, out, err) }
    end

    # #close frees the configuration and its file caches.
    include HandleOwner

    # `Hiera#lookup(key, default, scope, order_override, resolution_type)`:
    # the value, or `default` when nothing is found (a String default is
    # interpolated, as in the gem). `scope`: a Hash, or anything the gem
    # takes as a scope (e.g. Puppet's `Hiera::Scope`). Raises a
    # {Libhiera::Error} with the gem's message.
    def lookup(key, default = nil, scope = {}, order_override = nil, resolution_type = :priority)
      req = { 'key' => key.to_s, 'order_override' => Wire.prepare(order_override),
              'resolution_type' => Wire.prepare(resolution_type) }
      req['default'] = default if default.is_a?(String)
      host = nil
      if scope.is_a?(Hash)
        req['scope'] = Wire.prepare(scope)
      else
        host = Host::SCOPE_ONLY
      end
      status, text, = call(JSON.generate(req), scope, nil, host)
      Native.answer(status, text, default)
    end

    # One backend's `lookup(key, scope, order_override, resolution_type,
    # context)` as the gem's yaml and json backends answer it (what the
    # `libhiera` Hiera 3 backend calls). Returns `[found, value]`; raises
    # what the gem would raise.
    # @api private
    def backend_lookup(backend, key, scope, order_override, resolution_type, context, config_context)
      ctx = { 'order_override' => Wire.prepare(context.is_a?(Hash) ? context[:order_override] : nil) }
      seen = Hiera3.seen_of(context)
      ctx['seen'] = seen if seen
      # Ruby's working directory (JRuby's Dir.chdir does not change the
      # process's).
      req = { 'key' => key.nil? ? nil : key.to_s, 'backend' => backend.to_s, 'order_override' => Wire.prepare(order_override),
              'resolution_type' => Wire.prepare(resolution_type), 'context' => ctx, 'cwd' => Dir.pwd }
      scope_json, host = Host.scope_for(scope)
      config_seen = nil
      if config_context.is_a?(Hash)
        config_seen = Hiera3.seen_of(config_context) || []
        req['config_context'] = { 'order_override' => Wire.prepare(config_context[:order_override]), 'seen' => config_seen }
      end
      json = JSON.generate(req)
      # The scope's JSON goes inside the request.
      json = "#{json[0...-1]},\"scope\":#{scope_json}}" if scope_json
      status, text, guard, call = call(json, scope, context, host)
      if guard
        g = JSON.parse(guard)
        seen.replace(g['seen']) if seen && g['seen']
        config_seen.replace(g['config_seen']) if config_seen && g['config_seen']
      end
      raise call.error if call.error

      case status
      when Native::OK then [true, Wire.load(text)]
      when Native::NOT_FOUND then [false, nil]
      else raise Hiera3.gem_exception(status, text)
      end
    end

    # The exception the gem raises for a failure libhiera reports: the
    # gem's (or Ruby's, Psych's, JSON's, deep_merge's) class where libhiera
    # can tell it, with the message libhiera gives; else a {Libhiera::Error}.
    # @api private
    def self.gem_exception(status, text)
      err = Native.error(status, text)
      cls = gem_class(err)
      return err unless cls

      # The class's own initialize would reword the message: keep it exact.
      msg = err.message
      e = cls.allocate
      Exception.instance_method(:initialize).bind(e).call(msg)
      unless e.message == msg
        # (JRuby words SystemCallErrors itself)
        e.define_singleton_method(:to_s) { msg }
        e.define_singleton_method(:message) { msg }
      end
      e
    end

    # @api private
    def self.gem_class(err)
      msg = err.message
      case msg
      when /\AHiera type mismatch/ then Exception
      when /\Aundefined method/ then NoMethodError
      when /\Ano implicit conversion/, /\AData retrieved from .* is .* not Hash\z/ then TypeError
      when /\Adatadir for .* cannot be an array\z/ then constant('Hiera::InvalidConfigurationError')
      when /\Acomparison of .* failed\z/ then ArgumentError
      when /\AUnknown alias: / then constant('Psych::BadAlias')
      when /\ATried to load unspecified class: / then constant('Psych::DisallowedClass')
      when /\A\d+: unexpected token at / then constant('JSON::ParserError')
      when /\Anesting of \d+ is too deep\z/ then constant('JSON::NestingError')
      when /\A\(.*\): .* at line \d+ column \d+\z/ then constant('Psych::SyntaxError')
      when /\ASyntax error in key: /, /\AResolution type :\w+ is illegal/ then ArgumentError
      else
        case err.kind
        when 'recursion' then constant('Hiera::InterpolationLoop')
        when 'interpolation' then constant('Hiera::InterpolationInvalidValue')
        when 'merge' then constant('DeepMerge::InvalidParameter')
        when 'io'
          case msg
          when /\ANo such file or directory/ then Errno::ENOENT
          when /\AIs a directory/ then Errno::EISDIR
          when /\APermission denied/ then Errno::EACCES
          end
        end
      end
    end

    # @api private
    def self.constant(name)
      Object.const_get(name)
    rescue NameError
      nil
    end

    private

    def call(json, scope, context, host)
      Native.cstr(json)
      out = FFI::MemoryPointer.new(:pointer, 2)
      @handle.use do |h|
        Host.with_call(scope, context) do |call|
          status = Native.hiera3_lookup(h, json, host, out, out + FFI::Pointer.size)
          text, guard = Hiera3.take_all(out, 2)
          [status, text, guard, call]
        end
      end
    end
  end
end
