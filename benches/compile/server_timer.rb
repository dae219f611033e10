# frozen_string_literal: true

# Benchmark only: HieraTimer (hiera_timer.rb) inside Puppet Server's JRuby,
# installed by the data_binding termini of server/puppet/indirector/data_binding/
# (which routes.yaml names, so they are loaded when a JRuby instance starts).
# Each compile's record is appended, as a line of JSON, to
# <Puppet's logdir>/compile-bench-records.jsonl:
#   {"seq", "node", "total_ms", "hiera_ms", "cpu_ms", "lookups", "entries", "outer"}
# and the install is logged (at notice level) with the order of the modules on
# the hooked classes.
require 'json'
require_relative 'hiera_timer'

module CompileBenchServer
  RECORDS = 'compile-bench-records.jsonl'

  class << self
    attr_reader :records_path

    def start!(handoff:)
      if handoff
        # The libhiera terminus, as Puppet Server loads it for a routes.yaml
        # that names it (Puppet's autoloader: the modules of the
        # basemodulepath); loading it runs Libhiera::Startup.handoff!.
        klass = Puppet::Indirector::Terminus.terminus_class(:data_binding, :libhiera)
        raise 'compile bench: no libhiera data_binding terminus (is the libhiera module in the basemodulepath?)' unless klass
        unless defined?(::Libhiera::Puppet) && ::Libhiera::Puppet.enabled?
          raise 'compile bench: the libhiera terminus is loaded but the hand-off is not on'
        end
      end
      HieraTimer.install!
      # server-run --hiera-cpu: the compiling thread's CPU time in Hiera too
      HieraTimer.cpu = true if ENV['COMPILE_BENCH_HIERA_CPU'] == 'yes'
      check_order!(handoff)
      @records_path = File.join(Puppet[:logdir].to_s, RECORDS)
      @seq = 0
      @lock = Mutex.new
      HieraTimer.on_compile { |record| write(record) }
      Puppet.notice("compile bench: timer installed (#{handoff ? 'after the libhiera hand-off' : 'stock Puppet'}" \
                  "#{HieraTimer.cpu ? ', CPU time in Hiera too' : ''}); " \
                    "entry points #{HieraTimer.installed.join(', ')}; skipped #{HieraTimer.skipped.join(', ')}; " \
                    "records to #{@records_path}; #{jruby_options}#{ancestry}")
    end

    def write(record)
      line = nil
      @lock.synchronize do
        @seq += 1
        line = JSON.generate('seq' => @seq, 'node' => record[:node], 'total_ms' => record[:total_ns] / 1e6,
                             'hiera_ms' => record[:hiera_ns] / 1e6, 'cpu_ms' => record[:cpu_ns] && record[:cpu_ns] / 1e6,
                             'hiera_cpu_ms' => record[:hiera_cpu_ns] && record[:hiera_cpu_ns] / 1e6,
                             'gc_ms' => record[:gc_ns] && record[:gc_ns] / 1e6,
                             'alloc_mb' => record[:alloc_bytes] && record[:alloc_bytes] / 1e6,
                             'lookups' => record[:entries][HieraTimer::LOOKUP_LABEL],
                             'entries' => record[:entries], 'outer' => record[:outer],
                             'thread' => (Thread.current.name || Thread.current.object_id.to_s))
        File.open(@records_path, 'a') { |f| f.puts(line) }
      end
    rescue StandardError => e
      Puppet.err("compile bench: could not write a record: #{e.message}")
    end

    # JRuby's invokedynamic and JIT modes as this JRuby runs them (what
    # server-run --jvm "-Djruby.compile.invokedynamic=true" changes).
    def jruby_options
      return '' unless defined?(JRUBY_VERSION)

      o = org.jruby.util.cli.Options
      "JRuby #{JRUBY_VERSION}, compile.invokedynamic=#{o::COMPILE_INVOKEDYNAMIC.load}, compile.mode=#{o::COMPILE_MODE.load}; "
    rescue StandardError, NameError => e
      "JRuby options unknown (#{e.class}); "
    end

    # The hooked methods' owners: the first module in each ancestor list
    # that defines the method, in order.
    def hooks
      {
        'Lookup.lookup' => [::Puppet::Pops::Lookup.singleton_class, :lookup],
        'LookupAdapter#lookup' => [::Puppet::Pops::Lookup::LookupAdapter, :lookup],
        'Resource::Type#inject_external_parameters' => [::Puppet::Resource::Type, :inject_external_parameters],
        'Compiler#compile' => [::Puppet::Parser::Compiler, :compile],
        'Compiler.compile' => [::Puppet::Parser::Compiler.singleton_class, :compile],
      }
    end

    def chain(klass, meth)
      klass.ancestors.select { |m| m.instance_methods(false).include?(meth) || m.private_instance_methods(false).include?(meth) }
    end

    def ancestry
      hooks.map { |label, (klass, meth)| "#{label}: #{chain(klass, meth).map { |m| m.name || m.inspect }.join(' > ')}" }.join('; ')
    end

    # The timers must be the outermost: above the hand-off's modules.
    def check_order!(handoff)
      return unless handoff

      { 'Lookup.lookup' => 'Libhiera::Puppet::LookupFunction',
        'LookupAdapter#lookup' => 'Libhiera::Puppet::Handoff',
        'Resource::Type#inject_external_parameters' => 'Libhiera::Puppet::ClassParameters' }.each do |label, theirs|
        klass, meth = hooks.fetch(label)
        names = chain(klass, meth).map { |m| m.name.to_s }
        timer = names.index { |n| n.start_with?('HieraTimer::') }
        hand = names.index(theirs)
        unless timer && hand && timer < hand
          raise "compile bench: the timer is not above the hand-off on #{label}: #{names.join(' > ')}"
        end
      end
    end
  end
end
