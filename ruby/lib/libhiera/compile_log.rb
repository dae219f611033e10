# frozen_string_literal: true

module Libhiera
  module Puppet
    # One line per catalog compile while the hand-off is on, at info level
    # (in Puppet Server's puppetserver.log at its default level; with
    # `puppet apply --verbose`):
    #
    #   libhiera hand-off: catalog for NODE in environment ENV: 41 lookups answered,
    #   2 declined (global_only 2), 0 errors
    #
    # The counts are the difference of {Libhiera::Puppet.stats} over the
    # compile: exact when a Ruby runtime compiles one catalog at a time
    # (Puppet Server's default, one compile per JRuby instance at a time);
    # with `jruby-puppet.multithreaded` the counts of compiles running at the
    # same time are mixed.
    #
    # Prepended to Puppet::Parser::Compiler's singleton class by
    # {Puppet.accelerate!}.
    # @api private
    module CompileLog
      ANSWERED = :handed_off
      ERRORS = :errors
      DECLINED = 'declined_'

      def compile(node, *rest)
        return super unless Libhiera::Puppet.enabled?

        before = Libhiera::Puppet.stats.dup
        begin
          super
        ensure
          ::Puppet.info(CompileLog.line(node, before, Libhiera::Puppet.stats))
        end
      end

      # The line for a compile of `node`: the counters went from `before` to
      # `after`.
      def self.line(node, before, after)
        delta = {}
        after.each do |key, value|
          d = value - before.fetch(key, 0)
          delta[key] = d unless d.zero?
        end
        declined = delta.select { |k, _| k.to_s.start_with?(DECLINED) }
                        .map { |k, v| [k.to_s.delete_prefix(DECLINED), v] }.sort
        other = delta.reject { |k, _| k == ANSWERED || k == ERRORS || k.to_s.start_with?(DECLINED) }.sort_by { |k, _| k.to_s }
        text = +"libhiera hand-off: catalog for #{node.name} in environment #{node.environment}: " \
                "#{delta.fetch(ANSWERED, 0)} lookups answered, #{declined.sum { |_, v| v }} declined"
        text << " (#{declined.map { |k, v| "#{k} #{v}" }.join(', ')})" unless declined.empty?
        text << ", #{delta.fetch(ERRORS, 0)} errors"
        text << " (#{other.map { |k, v| "#{k} #{v}" }.join(', ')})" unless other.empty?
        text
      end
    end
  end
end
