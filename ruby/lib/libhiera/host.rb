# frozen_string_literal: true

require 'json'
require_relative 'native'
require_relative 'wire'

module Libhiera
  # Ruby hosts of `hiera_host` (see {Hiera#initialize}'s `host:`): the
  # object answering a configuration's calls of hierarchy functions
  # libhiera does not have, and receiving its warnings.
  #
  # A host object responds to `call(call)` and `warn(message)`:
  # - `call` gets the call as a Hash (`'kind'` (`'data_hash'`,
  #   `'lookup_key'`, `'data_dig'`, `'hiera3_backend'` or `'v4_data_hash'`,
  #   a Puppet 4 `function` data provider's `environment::data` or
  #   `<module>::data`, called without arguments for its whole hash),
  #   `'function'`,
  #   `'layer'`, `'module'`, `'entry'`, `'index'`, `'default_hierarchy'`,
  #   `'location'`, `'options'`, `'key'`, `'segments'`, `'merge'`; see
  #   include/hiera.h) and returns the value, or {NOT_FOUND}. What it raises
  #   fails the lookup, and {Session#lookup} raises that same exception.
  # - `warn` gets a warning Puppet would log, a Hash: `'message'`, and for
  #   a warning Puppet logs once per key, `'kind'`, `'key'`, and maybe
  #   `'file'` and `'line'` (Puppet's `warn_once` arguments).
  # - optionally `objects`: an Array where values the wire cannot carry
  #   (objects other than plain data, Sensitive and Puppet's rich data) are
  #   kept and passed by reference; give the same Array to the sessions
  #   ({Session#objects=}) whose lookups return them.
  #
  # Hosts are kept here, by number, until libhiera releases them (when the
  # configuration and its sessions are gone): the native side holds the
  # number, never a Ruby object.
  module Host
    @hosts = {}
    @next = 0
    @lock = Mutex.new

    # The exception a host raised, kept for the lookup that called it.
    RAISED = :__libhiera_host_raised

    class << self
      # A `hiera_host` struct for `host`, registered until released.
      # @api private
      def struct(host)
        id = @lock.synchronize do
          @next += 1
          @hosts[@next] = host
          @next
        end
        s = Native::HieraHost.new
        s[:user_data] = FFI::Pointer.new(id)
        s[:call] = CALL
        s[:warn] = WARN
        s[:release] = RELEASE
        s
      end

      # @api private
      def [](id)
        @lock.synchronize { @hosts[id] }
      end

      # @api private
      def release(id)
        @lock.synchronize { @hosts.delete(id) }
      end

      # The exception a host raised during the lookup that failed with
      # `error`, or nil.
      # @api private
      def raised_for(error)
        raised = Thread.current[RAISED]
        Thread.current[RAISED] = nil
        raised if raised && error.message.include?(raised.message.to_s)
      end
    end

    CALL = FFI::Function.new(:void, %i[pointer string pointer]) do |user_data, call_json, answer|
      begin
        host = Host[user_data.address]
        call = Wire.load(call_json.force_encoding(Encoding::UTF_8))
        value = host.call(call)
        unless value.equal?(NOT_FOUND)
          # plain data needs no table of objects (a Puppet host finds it
          # through the lookup's invocation, which a class's batch makes
          # only when asked)
          text = if Wire.plain?(value)
                   JSON.generate(value, max_nesting: false)
                 else
                   Wire.dump(value, objects: host.respond_to?(:objects) ? host.objects : nil)
                 end
          Native.hiera_answer_value(answer, text)
        end
      rescue Exception => e # rubocop:disable Lint/RescueException -- nothing may unwind into libhiera
        Thread.current[RAISED] = e
        Native.hiera_answer_error(answer, e.message.to_s.delete("\0"))
      end
      nil
    end

    WARN = FFI::Function.new(:void, %i[pointer string]) do |user_data, warning_json|
      begin
        Host[user_data.address]&.warn(JSON.parse(warning_json.force_encoding(Encoding::UTF_8)))
      rescue Exception # rubocop:disable Lint/RescueException -- nothing may unwind into libhiera
        nil
      end
      nil
    end

    RELEASE = FFI::Function.new(:void, %i[pointer]) do |user_data|
      begin
        Host.release(user_data.address)
      rescue Exception # rubocop:disable Lint/RescueException -- nothing may unwind into libhiera
        nil
      end
      nil
    end
  end
end
