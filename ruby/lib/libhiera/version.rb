# frozen_string_literal: true

module Libhiera
  # The version of this gem (the same as the crate's).
  VERSION = '0.1.0'

  # The C ABI version this gem speaks (`HIERA_ABI_VERSION` of `hiera.h`).
  # The library's `hiera_abi_version()` must be equal.
  ABI_VERSION = 0
end
