# frozen_string_literal: true

# libhiera: Puppet's Hiera lookup engine in Rust, for Ruby.
#
#   require 'libhiera'
#   hiera = Libhiera::Hiera.new(hiera_config: 'hiera.yaml', environmentpath: 'environments',
#                               environment: 'production')
#   hiera.session(scope).lookup('ntp::servers')
#
# Hiera 3: `require 'libhiera/hiera3'` (Libhiera::Hiera3, the
# `libhiera` Hiera 3 backend, Libhiera::Hiera3.accelerate!). Puppet: the
# functions under lib/puppet/functions/libhiera and lib/libhiera/puppet.rb.
require_relative 'libhiera/version'
require_relative 'libhiera/errors'
require_relative 'libhiera/native'
require_relative 'libhiera/wire'
require_relative 'libhiera/handle'
require_relative 'libhiera/hiera'

module Libhiera
  # The version of the loaded library (e.g. "0.1.0").
  def self.library_version
    Native.hiera_version
  end

  # The file the library was loaded from.
  def self.library_path
    Native.path
  end

  # Parses the content of a data file as Puppet's `yaml_data` (`format`
  # "yaml") or `json_data` ("json") reads it; `path` names the file in
  # messages. Returns the document (nil for an empty YAML document; a YAML
  # document need not be a Hash). Raises {ParseError} with Puppet's message.
  def self.parse_data(format, path, content)
    out = FFI::MemoryPointer.new(:pointer)
    status = Native.hiera_parse_data(Native.cstr(format.to_s), Native.cstr(path.to_s), content, content.bytesize, out)
    text = Native.take(out)
    raise Native.error(status, text) unless status == Native::OK

    Wire.load(text)
  end
end
