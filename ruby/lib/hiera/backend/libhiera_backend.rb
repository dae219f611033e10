# frozen_string_literal: true

require 'libhiera/hiera3'

class Hiera
  module Backend
    # A Hiera 3 backend that answers yaml and json hierarchies through
    # libhiera (Rust), identically to the stock yaml and json backends:
    #
    #   :backends:
    #     - libhiera
    #   :libhiera:
    #     :backends: [yaml, json]    # the stock backends it stands for, in order (default [yaml])
    #   :yaml:
    #     :datadir: /etc/puppetlabs/code/hieradata
    #   :json:
    #     :datadir: /etc/puppetlabs/code/hieradata
    #
    # Each format is searched as the stock backend of that name would search
    # it (`:hierarchy`, the `:yaml:`/`:json:` datadirs, `:merge_behavior`,
    # `:deep_merge_options`), with its own file cache; `%{hiera('k')}` in
    # data and hierarchy goes to `Hiera::Backend.lookup` (every configured
    # backend), and variables are read from the scope the lookup was given.
    class Libhiera_backend
      # Remembers the key each `Backend.lookup` on this thread was given.
      # @api private
      module KeyTracker
        STACK = :__libhiera_backend_keys

        def self.current
          Thread.current[STACK]&.last
        end

        def lookup(key, *rest)
          stack = (Thread.current[STACK] ||= [])
          stack.push(key)
          begin
            super
          ensure
            stack.pop
          end
        end
      end
      Backend.singleton_class.prepend(KeyTracker) unless Backend.singleton_class < KeyTracker

      def initialize(_cache = nil)
        @lock = Mutex.new
        @engine = nil
        @engine_for = nil
      end

      # The formats this backend stands for (`:libhiera: :backends:`).
      def formats
        options = Config[:libhiera]
        list = options.is_a?(Hash) ? options[:backends] : nil
        list = ['yaml'] if list.nil?
        [list].flatten.map(&:to_s)
      end

      def lookup(key, scope, order_override, resolution_type, context)
        list = formats
        if list.size == 1
          found, value = lookup_in(list[0], key, scope, order_override, resolution_type, context)
          throw :no_such_key unless found
          return value
        end

        strategy = resolution_type.is_a?(Hash) ? :hash : resolution_type
        answer = nil
        found = false
        list.each do |format|
          here, new_answer = lookup_in(format, key, scope, order_override, resolution_type, context)
          next unless here

          found = true
          case strategy
          when :array
            answer ||= []
            answer << new_answer
          when :hash
            answer ||= {}
            answer = Backend.merge_answer(new_answer, answer, resolution_type)
          else
            answer = new_answer
            break
          end
        end
        throw :no_such_key unless found
        answer
      end

      # With several formats, a dotted key falls through to the next format
      # when the sub key is missing, as with several stock backends. Messages
      # name the key as written (KeyTracker keeps it: the gem passes only the
      # segments).
      def lookup_with_segments(segments, scope, order_override, resolution_type, context)
        key = KeyTracker.current ||
              segments.map { |s| s =~ /[.'"]/ ? (s.include?("'") ? "\"#{s}\"" : "'#{s}'") : s }.join('.')
        formats.each do |format|
          here, value = lookup_in(format, segments[0], scope, order_override, resolution_type, context)
          next unless here

          found = false
          value = catch(:no_such_key) do
            v = Backend.qualified_lookup(segments.drop(1), value, key)
            found = true
            v
          end
          return value if found
        end
        throw :no_such_key
      end

      # `lookup_with_segments` is offered only with several formats: with
      # one, the gem digs itself (with the key as written).
      def respond_to?(name, include_all = false)
        return formats.size > 1 if name.to_sym == :lookup_with_segments

        super
      end

      private

      def lookup_in(format, key, scope, order_override, resolution_type, context)
        engine.backend_lookup(format, key, scope, order_override, resolution_type, context,
                              Backend.instance_variable_get(:@config_lookup_context))
      end

      # A libhiera Hiera 3 engine for the loaded configuration (made again
      # when the configuration changes), holding the formats' file caches.
      def engine
        config = Config.instance_variable_get(:@config) || {}
        stamp = [config.object_id, config.hash]
        @lock.synchronize do
          unless @engine_for == stamp
            @engine&.close
            @engine = Libhiera::Hiera3.new(config: config.merge(backends: formats))
            @engine_for = stamp
          end
          @engine
        end
      end
    end
  end
end
