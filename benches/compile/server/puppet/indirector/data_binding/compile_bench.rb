# frozen_string_literal: true

# Benchmark only (benches/compile/server-run): a data_binding terminus that
# routes.yaml names so that Puppet Server loads it when a JRuby instance
# starts, before its first compile; loading it installs the compile
# benchmark's timers (benches/compile/hiera_timer.rb) on stock Puppet.
# Puppet's `hiera` terminus otherwise: lookups do not consult the route while
# data_binding_terminus is `hiera` (the default).
require 'puppet/indirector/data_binding/hiera'
require_relative '../../../../server_timer'

class Puppet::DataBinding::CompileBench < Puppet::DataBinding::Hiera
  desc 'Puppet\'s hiera terminus; loading it installs the compile benchmark\'s timers.'
end

CompileBenchServer.start!(handoff: false)
