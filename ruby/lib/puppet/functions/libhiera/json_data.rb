# frozen_string_literal: true

require_relative '../../../libhiera/puppet'

# `libhiera::json_data`: Puppet's `json_data` (a Hiera 5 `data_hash`
# function) with the JSON read by libhiera. Same options, results, caching
# and messages.
Puppet::Functions.create_function(:'libhiera::json_data') do
  extend Libhiera::Puppet::DataHashFunction

  data_hash_function('Struct[{path=>String[1]}]') { 'json' }
end
