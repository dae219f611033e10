# frozen_string_literal: true

module Libhiera
  # The base of every error libhiera raises.
  #
  # `kind` is the library's error kind (`"config"`, `"parse"`, `"type"`,
  # `"interpolation"`, `"recursion"`, `"merge"`, `"lookup"`, `"io"`,
  # `"invalid_argument"`, `"limit"`: the "Error kinds" of `hiera.h`);
  # `file` and `line` say where, when known.
  class Error < StandardError
    attr_reader :kind, :file, :line

    def initialize(message = nil, kind: nil, file: nil, line: nil)
      super(message)
      @kind = kind
      @file = file
      @line = line
    end
  end

  # A hiera.yaml (or an environment.conf) is invalid.
  class ConfigError < Error; end
  # A data file cannot be parsed.
  class ParseError < Error; end
  # A value has the wrong type (merges, data validation, dotted keys).
  class TypeMismatchError < Error; end
  # An interpolation expression is invalid.
  class InterpolationError < Error; end
  # A lookup recursed into itself.
  class RecursionError < Error; end
  # A deep merge failed (invalid options, unsortable arrays).
  class MergeError < Error; end
  # Any other failure of a lookup (bad key syntax, convert_to, ...).
  class LookupError < Error; end
  # A file could not be read.
  class FileError < Error; end
  # An argument given to libhiera is invalid.
  class InvalidArgumentError < Error; end
  # A bound on one lookup's work, memory or stack was reached (the `limits:`
  # of {Hiera#initialize}); the message names the key, the file and the limit.
  class LimitError < Error; end
  # The library caught an internal bug (a Rust panic); the handles stay valid.
  class PanicError < Error; end
  # A handle was used after #close.
  class ClosedError < Error; end
  # The shared library cannot be loaded, or its ABI version is not this gem's.
  class LibraryError < Error; end
  # Looking up with #lookup! found nothing.
  class NotFoundError < LookupError; end

  # Error classes by the library's error kind.
  ERROR_KINDS = {
    'config' => ConfigError,
    'parse' => ParseError,
    'type' => TypeMismatchError,
    'interpolation' => InterpolationError,
    'recursion' => RecursionError,
    'merge' => MergeError,
    'lookup' => LookupError,
    'io' => FileError,
    'invalid_argument' => InvalidArgumentError,
    'limit' => LimitError,
  }.freeze

  # The exception for an error object `{"kind", "message", "file"?, "line"?}`.
  def self.error_from(object)
    object = {} unless object.is_a?(Hash)
    kind = object['kind']
    cls = ERROR_KINDS.fetch(kind, Error)
    cls.new(object['message'] || 'libhiera failed', kind: kind, file: object['file'], line: object['line'])
  end
end
