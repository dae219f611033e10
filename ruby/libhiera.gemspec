# frozen_string_literal: true

require_relative 'lib/libhiera/version'

Gem::Specification.new do |s|
  s.name = 'libhiera'
  s.version = Libhiera::VERSION
  s.summary = "Puppet's Hiera lookup engine in Rust, for Ruby: Hiera 5 lookups, Hiera 3 backends and Puppet's lookup"
  s.description = <<~TEXT
    Ruby bindings (ffi, no C extension: MRI and JRuby) of libhiera, Puppet's
    Hiera lookup engine rebuilt in Rust: Libhiera::Hiera for Hiera 5 lookups,
    a Hiera 3 backend and drop-in Rust versions of Hiera::Backend.merge_answer,
    parse_answer and parse_string, Hiera 5 data_hash functions for Puppet, and
    a hand-off of whole lookups from a Puppet catalog compile.
  TEXT
  s.license = 'Apache-2.0'
  s.authors = ['libhiera']
  s.homepage = 'https://example.invalid/libhiera'
  s.required_ruby_version = '>= 2.6' # JRuby 9.3 (Puppet Server 7)
  s.files = Dir.glob('lib/**/*.rb', base: __dir__) + %w[README.md metadata.json libhiera.gemspec] +
            # a copy of the shared library, when one was put there before `gem build`
            Dir.glob('lib/libhiera/libhiera.{so,dylib,dll}', base: __dir__)
  s.require_paths = ['lib']
  s.add_runtime_dependency 'ffi', '>= 1.15'
  s.add_development_dependency 'minitest', '>= 5'
end
