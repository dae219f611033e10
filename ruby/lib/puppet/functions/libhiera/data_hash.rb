# frozen_string_literal: true

require_relative '../../../libhiera/puppet'

# `libhiera::data_hash`: one `data_hash` function for YAML and JSON files,
# read by libhiera: the level's `format` option (`yaml` or `json`) says
# which, else the file's extension (`.json` is JSON, anything else YAML).
# Equivalent to `yaml_data` and `json_data` respectively.
#
#   defaults:
#     data_hash: libhiera::data_hash
#   hierarchy:
#     - name: nodes
#       path: "nodes/%{trusted.certname}.json"
#     - name: common
#       path: common.yaml
Puppet::Functions.create_function(:'libhiera::data_hash') do
  extend Libhiera::Puppet::DataHashFunction

  options_type = 'Struct[{path=>String[1], Optional[format]=>Enum[yaml, json]}]'
  missing_path = "#{Libhiera::Puppet::MISSING_PATH} (and optionally 'format': yaml or json)"
  data_hash_function(options_type, missing_path: missing_path) do |options|
    options['format'] || (File.extname(options['path']) == '.json' ? 'json' : 'yaml')
  end
end
