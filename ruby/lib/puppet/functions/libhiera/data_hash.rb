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
  dispatch :data_hash do
    param 'Struct[{path=>String[1], Optional[format]=>Enum[yaml, json]}]', :options
    param 'Puppet::LookupContext', :context
  end

  argument_mismatch :missing_path do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def data_hash(options, context)
    path = options['path']
    format = options['format'] || (File.extname(path) == '.json' ? 'json' : 'yaml')
    context.cached_file_data(path) do |content|
      Libhiera::Puppet.data_file(format, path, content)
    end
  end

  def missing_path(_options, _context)
    "#{Libhiera::Puppet::MISSING_PATH} (and optionally 'format': yaml or json)"
  end
end
