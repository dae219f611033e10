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
# HandoffProbe.install_split! (driver.rb --split) instead wraps fewer
# methods and keeps each one's time exclusive of the wrapped methods it
# calls, counted only inside the timer's outermost Hiera entry: the time in
# Hiera split by kind (labels "<kind>: <method>").
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
      wrap(Libhiera::Session, :lookup, 'Session#lookup')
      wrap(Libhiera::Session, :lookup_keys, 'Session#lookup_keys')
      wrap(Libhiera::Session, :lookup_keys_answers, 'Session#lookup_keys_answers')
      wrap(Libhiera::Session, :lookup_keys_table, 'Session#lookup_keys_table')
      wrap(Libhiera::Session.singleton_class, :scope_fields, 'Session.scope_fields')
      wrap(Libhiera::Handle, :use, 'Handle#use')
      wrap(::Puppet::Parser::Scope, :to_hash, 'Scope#to_hash')
      wrap(::Puppet::Pops::Lookup::Invocation.singleton_class, :new, 'Invocation.new')
      self
    end

    # --split: the time inside Hiera (the timer's outermost entries) split by
    # kind, each wrapped method's time EXCLUSIVE of the wrapped methods it
    # calls, counted only inside Hiera: the engine (every FFI call into
    # libhiera), reading answers out of native memory, decoding them into
    # Ruby values, the host's callbacks, Puppet's own code inside the timer,
    # and the hand-off's scope work; what is left of the Hiera time is the
    # rest of the hand-off's glue (and the probe's and timer's own cost:
    # {calibrate}). Labels are "<kind>: <method>".
    SPLIT_STACK = []

    def split_wrap(owner, meth, label)
      return unless owner.method_defined?(meth) || owner.private_method_defined?(meth)

      private_method = owner.private_method_defined?(meth)
      mod = Module.new do
        define_method(meth) do |*args, &block|
          return super(*args, &block) if (Thread.current[HieraTimer::DEPTH] || 0).zero?

          stack = SPLIT_STACK
          stack.push(0)
          t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
          begin
            super(*args, &block)
          ensure
            dt = Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond) - t0
            child = stack.pop
            COUNTS[label] += 1
            TIMES[label] += dt - child
            stack[-1] += dt unless stack.empty?
          end
        end
        ruby2_keywords(meth) if respond_to?(:ruby2_keywords, true)
        private meth if private_method
      end
      owner.prepend(mod)
    end

    def install_split!
      native = Libhiera::Native.singleton_class
      Libhiera::Native.singleton_methods(false).grep(/\Ahiera/).each { |m| split_wrap(native, m, "engine: #{m}") }
      split_wrap(native, :take, 'read answer: Native.take')
      split_wrap(Libhiera::Wire.singleton_class, :load, 'decode: Wire.load')
      split_wrap(Libhiera::Wire.singleton_class, :answers_table, 'decode: Wire.answers_table')
      split_wrap(Libhiera::Puppet::Host, :call, 'host callback: Host#call')
      split_wrap(Libhiera::Puppet::Host, :warn, 'host callback: Host#warn')
      lookup = ::Puppet::Pops::Lookup
      split_wrap(lookup::Invocation.singleton_class, :new, 'Puppet: Invocation.new')
      split_wrap(lookup::Invocation, :lookup_adapter, 'Puppet: Invocation#lookup_adapter')
      split_wrap(lookup.singleton_class, :assert_type, 'Puppet: Lookup.assert_type')
      split_wrap(lookup.singleton_class, :fail_lookup, 'Puppet: Lookup.fail_lookup')
      split_wrap(lookup.singleton_class, :search_and_merge, 'Puppet: Lookup.search_and_merge')
      split_wrap(::Puppet::Parser::Resource, :[]=, 'Puppet: Resource#[]= (parameter binding)')
      # The hand-off's modules are already prepended to Puppet's classes: a
      # module prepended to them now would not reach those classes (Ruby
      # before 3.0, JRuby 9.3), so the classes are wrapped.
      adapter = lookup::LookupAdapter
      split_wrap(adapter, :libhiera_answer, 'hand-off: libhiera_answer (own)')
      split_wrap(adapter, :libhiera_lookup_keys, 'hand-off: libhiera_lookup_keys (own, the answers loop)')
      split_wrap(adapter, :libhiera_session, 'hand-off: libhiera_session (own)')
      split_wrap(adapter, :scope_fields, 'hand-off: scope_fields (own)')
      split_wrap(adapter, :libhiera_scope_fields, 'hand-off: libhiera_scope_fields (own)')
      handoff = Libhiera::Puppet::Handoff.singleton_class
      split_wrap(handoff, :plain_adapter, 'hand-off: Handoff.plain_adapter')
      split_wrap(handoff, :chain, 'hand-off: Handoff.chain')
      split_wrap(handoff, :local_names, 'hand-off: Handoff.local_names')
      split_wrap(Libhiera::Puppet::CompileState, :key_request, 'hand-off: key_request')
      split_wrap(::Puppet::Resource::Type, :libhiera_keys, 'hand-off: libhiera_keys')
      split_wrap(::Puppet::Resource::Type, :libhiera_batch, 'hand-off: libhiera_batch')
      split_wrap(Libhiera::Session, :lookup_request, 'session: Session#lookup_request (own)')
      split_wrap(Libhiera::Session, :lookup_keys_answers, 'session: Session#lookup_keys_answers (own)')
      split_wrap(Libhiera::Session, :lookup_keys_table, 'session: Session#lookup_keys_table (own)')
      split_wrap(Libhiera::Handle, :use, 'session: Handle#use (own)')
      split_wrap(native, :out_pointer, 'session: Native.out_pointer')
      @split = true
      self
    end

    def split?
      @split
    end

    # The cost of one wrapped call (ns): a wrapped empty method called
    # `n` times inside a pretend Hiera entry, against the same unwrapped.
    def calibrate(n = 200_000)
      plain = Class.new { define_method(:m) { |a| a } }
      wrapped = Class.new { define_method(:m) { |a| a } }
      split_wrap(wrapped, :m, 'calibration')
      o1 = plain.new
      o2 = wrapped.new
      Thread.current[HieraTimer::DEPTH] = 1
      extra_ns(o1, o2, n)
    ensure
      Thread.current[HieraTimer::DEPTH] = nil
      COUNTS.delete('calibration')
      TIMES.delete('calibration')
    end

    # The cost of one outermost entry through HieraTimer's wrapper (ns): a
    # method wrapped as the timer wraps its entry points, called inside a
    # pretend compile, against the same unwrapped.
    def calibrate_timer(n = 100_000)
      plain = Class.new { define_method(:m) { |a| a } }
      wrapped = Class.new { define_method(:m) { |a| a } }
      wrapped.prepend(HieraTimer.send(:timing_module, :m, 'calibration', false))
      o1 = plain.new
      o2 = wrapped.new
      saved = Thread.current[HieraTimer::STATE]
      Thread.current[HieraTimer::STATE] = { hiera_ns: 0, entries: Hash.new(0), outer: Hash.new(0) }
      Thread.current[HieraTimer::DEPTH] = 0
      extra_ns(o1, o2, n)
    ensure
      Thread.current[HieraTimer::STATE] = saved
      Thread.current[HieraTimer::DEPTH] = nil
    end

    # What a call of `wrapped.m` costs over one of `plain.m` (ns), each
    # called `n` times after 3 warming passes (JIT).
    def extra_ns(plain, wrapped, n)
      3.times do
        n.times { |i| plain.m(i) }
        n.times { |i| wrapped.m(i) }
      end
      t0 = now
      n.times { |i| plain.m(i) }
      t1 = now
      n.times { |i| wrapped.m(i) }
      t2 = now
      ((t2 - t1) - (t1 - t0)) / n.to_f
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
      io.puts format('%-48s %12s %12s %10s%s', @split ? 'split of the time in Hiera (per compile, exclusive)' : 'probe (per compile)', 'calls', 'ms incl.', 'us/call',
                     per ? format(' %12s', 'per lookup') : '')
      sums.sort_by { |_, (_, ns)| -ns }.each do |k, (c, ns)|
        io.puts format('%-48s %12.1f %12.2f %10.2f%s', k, c / n, ns / n / 1e6, c.zero? ? 0 : ns / c / 1e3,
                       per && per.positive? ? format(' %12.3f', c / n / per) : '')
      end
    end
  end
end
