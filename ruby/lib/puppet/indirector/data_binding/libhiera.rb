# frozen_string_literal: true

require 'puppet/indirector/data_binding/hiera'
require_relative '../../../libhiera/startup'

# The `libhiera` data_binding terminus: Puppet's `hiera` terminus, whose
# loading switches the libhiera hand-off on.
#
# Puppet Server: routes.yaml (in Puppet's confdir) names it for the
# data_binding indirection,
#
#   server:
#     data_binding:
#       terminus: libhiera
#
# and every JRuby instance loads this file when it starts (Puppet Server
# configures the routes of its "server" application before it serves a
# request), from the `libhiera` module in the basemodulepath. Puppet's
# lookups do not consult this indirection while `data_binding_terminus` is
# `hiera` (the default, which the hand-off needs), so the route changes
# nothing else; were `data_binding_terminus = libhiera` set, this terminus
# would answer as Puppet's `hiera` terminus.
class Puppet::DataBinding::Libhiera < Puppet::DataBinding::Hiera
  desc 'Puppet\'s hiera terminus; loading it switches the libhiera hand-off on.'
end

Libhiera::Startup.handoff!
