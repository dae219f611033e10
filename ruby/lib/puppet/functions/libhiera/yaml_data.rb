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
  dispatch :yaml_data do
    param 'Struct[{path=>String[1]}]', :options
    param 'Puppet::LookupContext', :context
  end

  argument_mismatch :missing_path do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def yaml_data(options, context)
    path = options['path']
    context.cached_file_data(path) do |content|
      Libhiera::Puppet.data_file('yaml', path, content)
    end
  end

  def missing_path(_options, _context)
    Libhiera::Puppet::MISSING_PATH
  end
end
