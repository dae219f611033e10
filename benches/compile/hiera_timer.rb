# frozen_string_literal: true

# Times catalog compiles and the part of them spent in Hiera, from inside
# Puppet: small modules prepended onto Puppet's classes. Plain Ruby with no
# dependency (not even on Puppet at load time), so that the same file can be
# loaded in MRI (benches/compile/driver.rb) or in Puppet Server's JRuby.
#
#   require_relative 'hiera_timer'
#   HieraTimer.install!                 # after Puppet is loaded
#   HieraTimer.on_compile { |record| ... }   # optional: each compile's record
#   ... compiles ...
#   HieraTimer.last                     # this thread's last compile record
#
# "Time in Hiera" is the wall time between the OUTERMOST entry into any of
# ENTRY_POINTS and its exit: a thread-local depth counter makes nested
# entries (lookup() -> LookupAdapter#lookup -> interpolation -> lookup ...)
# count once. Each entry point is also counted (all entries, and outermost
# ones) per compile.
#
# A compile record (a Hash): node, total_ns (Compiler#compile), cpu_ns (this
# thread's CPU time, where the platform has it), hiera_ns, entries
# { label => count }, outer { label => count }, gc_ns (the runtime's
# collection time during the compile, all threads: the JVM's collectors'
# times in JRuby, GC.stat's time in MRI; nil where it has none) and
# alloc_bytes (bytes this thread allocated during the compile: the JVM's
# per-thread counter in JRuby; nil in MRI).
module HieraTimer
  # Everything Hiera or the libhiera hand-off does in a compile is entered
  # through one of these: [constant, :instance or :singleton, method, label].
  # Entry points whose constant or method does not exist (another Puppet,
  # a hand-off without that hook) are skipped and listed by {skipped}. Add
  # the hand-off's new entry points here (or with {add_entry_point} before
  # {install!}).
  ENTRY_POINTS = [
    # the lookup() function
    ['Puppet::Pops::Lookup', :singleton, :lookup, 'lookup()'],
    # automatic parameter lookup goes through it (and lookup() of one key)
    ['Puppet::Pops::Lookup', :singleton, :search_and_merge, 'search_and_merge'],
    # every lookup of a compile (the hand-off is prepended here)
    ['Puppet::Pops::Lookup::LookupAdapter', :instance, :lookup, 'LookupAdapter#lookup'],
    # a class's automatic parameter lookup (all its parameters)
    ['Puppet::Resource::Type', :instance, :inject_external_parameters, 'APL (inject_external_parameters)'],
    # hiera(), hiera_array(), hiera_hash(), hiera_include()
    ['Hiera::PuppetFunction', :instance, :lookup, 'hiera_*()'],
  ].map(&:freeze)

  # Counted (every call, not timed separately) to give "lookups per compile".
  LOOKUP_LABEL = 'LookupAdapter#lookup'

  DEPTH = :__hiera_timer_depth
  STATE = :__hiera_timer_state

  @extra = []
  @installed = []
  @skipped = []
  @listeners = []

  class << self
    attr_reader :installed, :skipped

    # Another entry point ([constant, :instance | :singleton, method, label]),
    # e.g. a hook the hand-off adds; call before install!.
    def add_entry_point(const, kind, meth, label = "#{const}#{kind == :singleton ? '.' : '#'}#{meth}")
      @extra << [const, kind, meth.to_sym, label].freeze
    end

    def entry_points
      ENTRY_POINTS + @extra
    end

    # Prepends the timers (idempotent per entry point). Returns the labels
    # installed. Requires hiera/puppet_function (the hiera_*() functions'
    # class) when Puppet has it, so that it can be timed before first use.
    def install!
      begin
        require 'hiera/puppet_function'
      rescue LoadError
        nil
      end
      entry_points.each do |const, kind, meth, label|
        next if @installed.include?(label)

        target = resolve(const)
        owner = target && (kind == :singleton ? target.singleton_class : target)
        unless owner && (owner.method_defined?(meth) || owner.private_method_defined?(meth))
          @skipped << label unless @skipped.include?(label)
          next
        end
        owner.prepend(timing_module(meth, label, owner.private_method_defined?(meth)))
        @installed << label
      end
      install_compile_timer
      @installed
    end

    # Whether each outermost entry also reads the thread's CPU time (the
    # record's hiera_cpu_ns; two reads of the JVM's ThreadMXBean, or of
    # CLOCK_THREAD_CPUTIME_ID, per entry: off unless asked for).
    attr_accessor :cpu

    # Called with each compile's record (on the compiling thread).
    def on_compile(&block)
      @listeners << block
    end

    # This thread's last compile record.
    def last
      Thread.current[:__hiera_timer_last]
    end

    # Runs the block as one outermost-or-nested entry labelled `label`.
    def enter(label)
      state = Thread.current[STATE]
      return yield if state.nil? # outside a timed compile

      state[:entries][label] += 1
      depth = Thread.current[DEPTH] || 0
      if depth.zero?
        state[:outer][label] += 1
        Thread.current[DEPTH] = 1
        c0 = @cpu ? cpu_now : nil
        t0 = now
        begin
          yield
        ensure
          state[:hiera_ns] += now - t0
          # --hiera-cpu: the compiling thread's CPU time in Hiera too (what a
          # busy machine's load does not inflate)
          if c0
            c1 = cpu_now
            state[:hiera_cpu_ns] += c1 - c0 if c1
          end
          Thread.current[DEPTH] = 0
        end
      else
        Thread.current[DEPTH] = depth + 1
        begin
          yield
        ensure
          Thread.current[DEPTH] = depth
        end
      end
    end

    # Times one compile (the block) on this thread; returns the block's value
    # and leaves the record in {last}.
    def time_compile(node_name)
      outer = Thread.current[STATE]
      return yield unless outer.nil? # a compile inside a compile: counted in the outer one

      state = { hiera_ns: 0, hiera_cpu_ns: 0, entries: Hash.new(0), outer: Hash.new(0) }
      Thread.current[STATE] = state
      Thread.current[DEPTH] = 0
      g0 = gc_now
      a0 = alloc_now
      c0 = cpu_now
      t0 = now
      begin
        yield
      ensure
        total = now - t0
        cpu = cpu_now
        alloc = alloc_now
        gc = gc_now
        Thread.current[STATE] = nil
        record = { node: node_name, total_ns: total, cpu_ns: cpu && c0 ? cpu - c0 : nil, hiera_ns: state[:hiera_ns],
                   hiera_cpu_ns: @cpu ? state[:hiera_cpu_ns] : nil,
                   entries: state[:entries], outer: state[:outer], gc_ns: gc && g0 ? gc - g0 : nil,
                   alloc_bytes: alloc && a0 ? alloc - a0 : nil }
        Thread.current[:__hiera_timer_last] = record
        @listeners.each { |l| l.call(record) }
      end
    end

    def now
      Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
    end

    # This thread's CPU time (ns), or nil. JRuby (Puppet Server) has no
    # CLOCK_THREAD_CPUTIME_ID: the JVM's ThreadMXBean there.
    def cpu_now
      if defined?(JRUBY_VERSION)
        @thread_mx ||= begin
          require 'java'
          java.lang.management.ManagementFactory.getThreadMXBean
        end
        ns = @thread_mx.getCurrentThreadCpuTime
        return ns.negative? ? nil : ns
      end
      Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID, :nanosecond)
    rescue StandardError, NotImplementedError, LoadError
      nil
    end

    # The runtime's garbage collection time so far (ns), or nil: in JRuby
    # the sum of the JVM's collectors' times (ms resolution), in MRI
    # GC.stat's :time (Ruby 3.1 and later: ms).
    def gc_now
      if defined?(JRUBY_VERSION)
        @gc_beans ||= begin
          require 'java'
          java.lang.management.ManagementFactory.getGarbageCollectorMXBeans.to_a
        end
        return @gc_beans.sum { |b| [b.getCollectionTime, 0].max } * 1_000_000
      end
      ms = GC.stat[:time]
      ms && ms * 1_000_000
    rescue StandardError, NotImplementedError, LoadError
      nil
    end

    # Bytes allocated by this thread so far, or nil (JRuby only: the JVM's
    # com.sun.management.ThreadMXBean).
    def alloc_now
      return nil unless defined?(JRUBY_VERSION)

      @thread_mx ||= begin
        require 'java'
        java.lang.management.ManagementFactory.getThreadMXBean
      end
      n = @thread_mx.getThreadAllocatedBytes(java.lang.Thread.currentThread.getId)
      n.negative? ? nil : n
    rescue StandardError, NotImplementedError, LoadError
      nil
    end

    private

    def resolve(const)
      const.split('::').inject(Object) { |mod, name| mod.const_get(name, false) }
    rescue NameError
      nil
    end

    def timing_module(meth, label, private_method)
      mod = Module.new do
        define_method(meth) do |*args, &block|
          HieraTimer.enter(label) { super(*args, &block) }
        end
        ruby2_keywords(meth) if respond_to?(:ruby2_keywords, true)
        private meth if private_method
      end
      # a readable name in profiles and ancestors
      HieraTimer.const_set("Timer#{@installed.size + @skipped.size}_#{meth.to_s.gsub(/\W/, '')}", mod)
      mod
    end

    # Puppet::Parser::Compiler#compile: the whole compile (including the
    # catalog's to_resource that Compiler.compile does inside it).
    def install_compile_timer
      compiler = resolve('Puppet::Parser::Compiler')
      return if compiler.nil? || compiler < CompileTimer

      compiler.prepend(CompileTimer)
    end
  end

  # Prepended onto Puppet::Parser::Compiler.
  module CompileTimer
    def compile(*args, &block)
      HieraTimer.time_compile(node.name) { super(*args, &block) }
    end
  end
end
