# frozen_string_literal: true

# The cost of one read of the calling thread's CPU clock in JRuby, two ways:
# the JVM's ThreadMXBean (HieraTimer.cpu_now, reached through JRuby's Java
# integration) and libc's clock_gettime(CLOCK_THREAD_CPUTIME_ID) through FFI
# (JRuby 9.3 has no Process::CLOCK_THREAD_CPUTIME_ID). Checks that the two
# read the same clock (interleaved reads never go back), then times N reads
# of each by the thread's own CPU time, 3 rounds:
#
#   jruby benches/compile/thread_cpu_clock.rb [N]
require 'java'
require 'ffi'

module ThreadCpuClock
  CLOCK_THREAD_CPUTIME_ID = 3 # Linux

  module LibC
    extend FFI::Library
    ffi_lib FFI::Library::LIBC
    attach_function :clock_gettime, %i[int pointer], :int
  end

  MX = java.lang.management.ManagementFactory.getThreadMXBean
  BUF = FFI::MemoryPointer.new(:long, 2)

  def self.mx
    MX.getCurrentThreadCpuTime
  end

  def self.ffi
    LibC.clock_gettime(CLOCK_THREAD_CPUTIME_ID, BUF)
    (BUF.get_int64(0) * 1_000_000_000) + BUF.get_int64(8)
  end
end

n = Integer(ARGV[0] || 1_000_000)
reads = []
5.times { reads << ThreadCpuClock.mx << ThreadCpuClock.ffi }
puts "interleaved reads (mx, ffi, ...): #{reads.join(' ')}; monotonic: #{reads.each_cons(2).all? { |a, b| a <= b }}"
3.times do
  s = 0
  a0 = ThreadCpuClock.mx
  n.times { s += ThreadCpuClock.mx }
  a1 = ThreadCpuClock.mx
  n.times { s += ThreadCpuClock.ffi }
  a2 = ThreadCpuClock.mx
  puts format('CPU ns per read: ThreadMXBean %.0f, FFI clock_gettime %.0f', (a1 - a0).fdiv(n), (a2 - a1).fdiv(n))
end
