# frozen_string_literal: true

# Benchmark only (benches/compile/server-run): the data_binding terminus that
# routes.yaml names in place of `libhiera` for the hand-off's server. Loading
# it first loads the `libhiera` terminus (from the libhiera module in the
# basemodulepath, as Puppet Server loads it when routes.yaml names it: that
# switches the hand-off on), then installs the compile benchmark's timers
# (benches/compile/hiera_timer.rb), so that they sit above the hand-off's
# modules on LookupAdapter#lookup and Puppet::Resource::Type#inject_external_parameters.
require 'puppet/indirector/data_binding/hiera'
require_relative '../../../../server_timer'

class Puppet::DataBinding::CompileBenchLibhiera < Puppet::DataBinding::Hiera
  desc 'Puppet\'s hiera terminus; loading it switches the libhiera hand-off on, then installs the compile benchmark\'s timers.'
end

CompileBenchServer.start!(handoff: true)
