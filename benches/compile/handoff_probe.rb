# frozen_string_literal: true

# Counts (and times, inclusively) what the libhiera hand-off does during a
# compile: every call into the shared library (per function), every FFI
# MemoryPointer made, every host callback from libhiera into Ruby (per
# kind), JSON encodes and parses, wire encodes and decodes, the hand-off's
# scope work. For benches/compile/driver.rb --probe (MRI or JRuby); not
# loaded otherwise. Counts do not depend on the machine's load; the times
# include the probe's own wrappers (a few hundred ns per call), so compare
# them only with each other, within one run.
#
#   HandoffProbe.install!   # after libhiera/puppet is loaded
#   before = HandoffProbe.snapshot; ...compile...; HandoffProbe.delta(before)
module HandoffProbe
  COUNTS = Hash.new(0)
  TIMES = Hash.new(0)

  class << self
    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    end

    # Prepends a counting, timing wrapper on `owner#meth` (skipped when the
    # method does not exist).
    def wrap(owner, meth, label)
      return unless owner.method_defined?(meth) || owner.private_method_defined?(meth)

      private_method = owner.private_method_defined?(meth)
      mod = Module.new do
        define_method(meth) do |*args, &block|
          COUNTS[label] += 1
          t0 = HandoffProbe.now
          begin
            super(*args, &block)
          ensure
            TIMES[label] += HandoffProbe.now - t0
          end
        end
        ruby2_keywords(meth) if respond_to?(:ruby2_keywords, true)
        private meth if private_method
      end
      owner.prepend(mod)
    end

    def install!
      native = Libhiera::Native.singleton_class
      (Libhiera::Native.singleton_methods(false).grep(/\Ahiera/)).each do |m|
        wrap(native, m, "ffi #{m}")
      end
      wrap(FFI::MemoryPointer.singleton_class, :new, 'FFI::MemoryPointer.new')
      wrap(FFI::MemoryPointer.singleton_class, :from_string, 'FFI::MemoryPointer.from_string')
      wrap(Libhiera::Puppet::Host, :call, 'host callback: call (Ruby side)')
      wrap(Libhiera::Puppet::Host, :warn, 'host callback: warn (Ruby side)')
      wrap(JSON.singleton_class, :parse, 'JSON.parse')
      wrap(JSON.singleton_class, :generate, 'JSON.generate')
      wire = Libhiera::Wire.singleton_class
      %i[load dump].each { |m| wrap(wire, m, "Wire.#{m}") }
      handoff = Libhiera::Puppet::Handoff
      %i[chain local_names top_stamp calling].each { |m| wrap(handoff.singleton_class, m, "Handoff.#{m}") }
      %i[libhiera_session scope_fields libhiera_lookup_keys].each { |m| wrap(handoff, m, "Handoff##{m}") }
      wrap(handoff, :libhiera_answer, 'Handoff#libhiera_answer')
      wrap(Libhiera::Session, :lookup_request, 'Session#lookup_request')
      wrap(handoff.singleton_class, :answering, 'Handoff.answering')
      wrap(Libhiera::Session, :lookup, 'Session#lookup')
      wrap(Libhiera::Session, :lookup_keys, 'Session#lookup_keys')
      wrap(Libhiera::Session, :lookup_keys_answers, 'Session#lookup_keys_answers')
      wrap(Libhiera::Session.singleton_class, :scope_fields, 'Session.scope_fields')
      wrap(Libhiera::Handle, :use, 'Handle#use')
      wrap(::Puppet::Parser::Scope, :to_hash, 'Scope#to_hash')
      wrap(::Puppet::Pops::Lookup::Invocation.singleton_class, :new, 'Invocation.new')
      self
    end

    def snapshot
      [COUNTS.dup, TIMES.dup]
    end

    # What happened since `before` (a {snapshot}): { label => [count, ns] }.
    def delta(before)
      counts, times = before
      out = {}
      COUNTS.each do |k, v|
        d = v - counts.fetch(k, 0)
        out[k] = [d, TIMES[k] - times.fetch(k, 0)] unless d.zero?
      end
      out
    end

    # Sums a list of {delta}s into per-compile means, printed as a table.
    def report(deltas, io = $stdout, per: nil)
      return if deltas.empty?

      n = deltas.size.to_f
      per = per&.to_f
      sums = Hash.new { |h, k| h[k] = [0, 0] }
      deltas.each { |d| d.each { |k, (c, ns)| sums[k][0] += c; sums[k][1] += ns } }
      io.puts format('%-48s %12s %12s %10s%s', 'probe (per compile)', 'calls', 'ms incl.', 'us/call',
                     per ? format(' %12s', 'per lookup') : '')
      sums.sort_by { |_, (_, ns)| -ns }.each do |k, (c, ns)|
        io.puts format('%-48s %12.1f %12.2f %10.2f%s', k, c / n, ns / n / 1e6, c.zero? ? 0 : ns / c / 1e3,
                       per && per.positive? ? format(' %12.3f', c / n / per) : '')
      end
    end
  end
end
