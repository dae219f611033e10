# frozen_string_literal: true

require_relative '../../../libhiera/puppet'

# `libhiera::json_data`: Puppet's `json_data` (a Hiera 5 `data_hash`
# function) with the JSON read by libhiera. Same options, results, caching
# and messages.
Puppet::Functions.create_function(:'libhiera::json_data') do
  dispatch :json_data do
    param 'Struct[{path=>String[1]}]', :options
    param 'Puppet::LookupContext', :context
  end

  argument_mismatch :missing_path do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end

  def json_data(options, context)
    path = options['path']
    context.cached_file_data(path) do |content|
      Libhiera::Puppet.data_file('json', path, content)
    end
  end

  def missing_path(_options, _context)
    Libhiera::Puppet::MISSING_PATH
  end
end
