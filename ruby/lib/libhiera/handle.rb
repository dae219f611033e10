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
    # On MRI a single Array#push, Array#pop or instance variable access is
    # atomic (the GVL is held during each, and they call nothing that could
    # switch threads), so calls in flight are counted without a Mutex (two
    # Mutex#synchronize per call cost three times as much). Elsewhere (JRuby)
    # a Mutex guards the count.
    GVL_ATOMIC = RUBY_ENGINE == 'ruby'

    def initialize(ptr, releaser)
      @ptr = FFI::AutoPointer.new(ptr, releaser)
      @closed = false
      if GVL_ATOMIC
        @calls = []          # one entry per call in flight
        @free_token = [true] # popped by the one caller that frees
      else
        @lock = Mutex.new
        @users = 0
        @freed = false
      end
    end

    if GVL_ATOMIC
      # Yields the pointer for one call.
      def use
        @calls.push(nil)
        # @closed is read after the push: a #close that did not see this
        # call in flight has set it already.
        if @closed
          @calls.pop
          raise ClosedError.new('libhiera: the handle is closed', kind: 'closed')
        end
        begin
          yield @ptr
        ensure
          @calls.pop
          @ptr.free if @closed && @calls.empty? && @free_token.pop
        end
      end

      # Closes the handle (idempotent).
      def close
        @closed = true
        @ptr.free if @calls.empty? && @free_token.pop
        nil
      end
    else
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
    end

    def closed?
      @closed
    end

    # The pointer, for a caller that calls with it directly, without {#use}
    # (two Mutex#synchronize and a block per call in JRuby): counted as one
    # call in flight for as long as the handle lives, so that {#close}
    # never frees it (the garbage collector does, once nothing holds the
    # handle). For an object that one thread at a time uses and that its
    # owner never closes (the Puppet hand-off's sessions,
    # Session#own!). Raises {ClosedError} when the handle is closed.
    # @api private
    def pin
      if GVL_ATOMIC
        @calls.push(nil)
        if @closed
          @calls.pop
          raise ClosedError.new('libhiera: the handle is closed', kind: 'closed')
        end
      else
        @lock.synchronize do
          raise ClosedError.new('libhiera: the handle is closed', kind: 'closed') if @closed

          @users += 1
        end
      end
      @ptr
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
