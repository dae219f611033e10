# frozen_string_literal: true

require_relative '../../../libhiera/puppet'

# `libhiera::yaml_data`: Puppet's `yaml_data` (a Hiera 5 `data_hash`
# function) with the YAML read by libhiera. Same options, results, caching
# (`cached_file_data`) and messages:
#
#   hierarchy:
#     - name: common
#       data_hash: libhiera::yaml_data
#       path: common.yaml
Puppet::Functions.create_function(:'libhiera::yaml_data') do
  extend Libhiera::Puppet::DataHashFunction

  data_hash_function('Struct[{path=>String[1]}]') { 'yaml' }
end
