# frozen_string_literal: true

require 'ffi'
require_relative 'errors'

module Libhiera
  # A native handle shared by threads: freed by the garbage collector
  # (FFI::AutoPointer with a releaser that never raises) or by {#close}.
  #
  # {#use} counts the calls in flight; {#close} marks the handle closed (later
  # uses raise {ClosedError}) and the handle is freed as soon as no call
  # uses it, by whichever thread finishes last. Nothing waits, so closing
  # from inside a callback cannot deadlock.
  class Handle
    def initialize(ptr, releaser)
      @ptr = FFI::AutoPointer.new(ptr, releaser)
      @lock = Mutex.new
      @users = 0
      @closed = false
      @freed = false
    end

    # Yields the pointer for one call.
    def use
      @lock.synchronize do
        raise ClosedError.new('libhiera: the handle is closed', kind: 'closed') if @closed

        @users += 1
      end
      begin
        yield @ptr
      ensure
        release = @lock.synchronize do
          @users -= 1
          @closed && @users.zero? && !@freed && (@freed = true)
        end
        @ptr.free if release
      end
    end

    # Closes the handle (idempotent).
    def close
      release = @lock.synchronize do
        @closed = true
        @users.zero? && !@freed && (@freed = true)
      end
      @ptr.free if release
      nil
    end

    def closed?
      @closed
    end
  end

  # What an object holding a {Handle} in `@handle` offers.
  module HandleOwner
    # Frees the native object now (idempotent); later calls raise
    # {ClosedError}.
    def close
      @handle.close
    end

    def closed?
      @handle.closed?
    end

    # @api private
    def use(&block)
      @handle.use(&block)
    end
  end
end
