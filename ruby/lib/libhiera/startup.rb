# frozen_string_literal: true

module Libhiera
  # Switching the Puppet hand-off on when a Puppet process starts (Puppet
  # Server: every JRuby instance, before its first compile), without a
  # library at hand: whatever goes wrong is logged, never raised, so that
  # Puppet starts either way.
  #
  # Puppet Server loads this through the `libhiera` data_binding terminus
  # (lib/puppet/indirector/data_binding/libhiera.rb) that routes.yaml names;
  # see the README, "The hand-off in Puppet Server".
  module Startup
    # What LIBHIERA_HANDOFF may say (any case). Puppet Server's
    # `jruby-puppet.environment-vars` passes strings only.
    ON = %w[1 true yes on].freeze
    OFF = %w[0 false no off].freeze

    # :on, :off or nil (not set, or not one of ON and OFF) for a value of
    # LIBHIERA_HANDOFF.
    def self.switch(value)
      v = value.to_s.strip.downcase
      return :on if ON.include?(v)

      OFF.include?(v) ? :off : nil
    end

    # Installs the hand-off (Libhiera::Puppet.accelerate!, which logs
    # "libhiera hand-off: on (libhiera VERSION from PATH, ...)") unless
    # LIBHIERA_HANDOFF says off; logs why not when it cannot (e.g. the
    # shared library is not found). Returns whether the hand-off is on.
    def self.handoff!
      setting = ENV['LIBHIERA_HANDOFF']
      if switch(setting) == :off
        ::Puppet.notice("libhiera hand-off: off (LIBHIERA_HANDOFF=#{setting})")
        return false
      end
      require_relative 'puppet'
      Libhiera::Puppet.accelerate!
      true
    rescue StandardError, ScriptError => e
      ::Puppet.warning("libhiera hand-off: off, it could not start: #{e.message}")
      false
    end
  end
end
