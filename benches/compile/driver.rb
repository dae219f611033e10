#!/usr/bin/env ruby
# frozen_string_literal: true
#
# End-to-end compile benchmark: whole catalog compiles of a control repo in
# one Ruby process, rounds alternating WITH and WITHOUT the libhiera hand-off
# (Libhiera::Puppet.accelerate! / decelerate!), every catalog compared with
# Puppet's.
#
#   ruby benches/compile/driver.rb --repo DIR [--rounds N] [--warm-rounds N]
#        [--nodes N] [--json OUT] [--libhiera-ruby DIR] [--libhiera-so FILE]
#        [--modes puppet,handoff] [--profile OUT] [--probe | --split] [--hiera-cpu]
#        [--threads N]
#
# The repo: DIR/hiera.yaml (the global layer), DIR/environments/production
# (manifests/site.pp, hiera.yaml, data/, modules), DIR/nodes/<certname>.json
# (each node's facts). `hiera-corpus --out DIR` and benches/realrepo have it.
#
# Which libhiera: --libhiera-ruby (the gem's lib directory, default
# <this checkout>/ruby/lib) and --libhiera-so (or LIBHIERA_PATH; default
# <this checkout>/target/release/libhiera.so), so that another checkout can
# be measured.
#
# Setup as benches/puppet_driver.rb: Puppet's settings isolated in a
# temporary directory, environmentpath on DIR/environments, hiera_config
# DIR/hiera.yaml, strict = warning; a warm-up compile in both modes on a
# throw-away repo loads the lazily required code (Puppet's and the gem's),
# and one compile of node 0 on a throw-away environment object of DIR loads
# the Ruby code of its resource types and functions. Then:
# 1. first compile of each mode: a fresh environment object (Puppet's Hiera
#    caches empty; for the hand-off also Libhiera::Puppet.reset!, so its file
#    caches are empty too), node 0;
# 2. --warm-rounds untimed passes over the nodes in both modes (the kept
#    environment object's caches filled, as a puppetserver with a long
#    environment_timeout keeps them);
# 3. --rounds timed rounds: in each, every node compiled in one mode, then
#    every node in the other; which mode goes first alternates by round;
#    GC.start before each pass.
# Every catalog (resources with their parameters, edges, classes) is compared
# with the Puppet catalog of the same node; any difference fails the run
# (exit 1), with the differences printed.
#
# Timing (HieraTimer, benches/compile/hiera_timer.rb): the compile is
# Puppet::Parser::Compiler#compile (Compiler.compile, as the catalog
# indirector calls it, includes the catalog's to_resource); time in Hiera is
# the wall time at the outermost entry into HieraTimer::ENTRY_POINTS.
# --threads N: each compile on one of N long-lived threads in turn (compile
# k on thread k mod N), as Puppet Server runs compiles on its Jetty pool's
# threads; 0 (the default): every compile on the driver's own thread. What
# the hand-off keeps per thread starts cold on each of them.
# --hiera-cpu: the compiling thread's CPU time at those entries too (two
# reads of the thread's CPU clock per outermost entry, in both modes),
# printed per mode after the table: what to compare on a busy machine,
# where wall times grow with the load.
#
# --probe (handoff_probe.rb): counts what the hand-off does per compile of
# the timed hand-off rounds (calls into libhiera per function, FFI
# MemoryPointers, host callbacks, JSON and wire encodes and parses, scope
# work), with their inclusive times, printed after the table. --split
# instead splits the hand-off's time in Hiera by kind (the engine's native
# calls, reading and decoding answers, host callbacks, Puppet's own code
# inside the timer, the hand-off's scope work, the rest), each exclusive
# (HandoffProbe.install_split!). Runs on MRI
# and on JRuby (benches/compile/jruby-run); the probe's wrappers add to the
# times it reports.

require_relative '../isolated_puppet'
require 'json'
require 'tmpdir'
require 'fileutils'
require 'digest'
require_relative 'hiera_timer'

module CompileBench
  ROOT = File.expand_path('../..', __dir__)
  MODES = %w[puppet handoff].freeze

  module_function

  def parse_args(argv)
    opts = { rounds: 5, warm_rounds: 1, nodes: nil, modes: MODES.dup,
             libhiera_ruby: File.join(ROOT, 'ruby', 'lib'),
             libhiera_so: ENV['LIBHIERA_PATH'] || File.join(ROOT, 'target', 'release', 'libhiera.so') }
    until argv.empty?
      arg = argv.shift
      case arg
      when '--repo' then opts[:repo] = File.expand_path(argv.shift)
      when '--rounds' then opts[:rounds] = Integer(argv.shift)
      when '--warm-rounds' then opts[:warm_rounds] = Integer(argv.shift)
      when '--nodes' then opts[:nodes] = Integer(argv.shift)
      when '--json' then opts[:json] = argv.shift
      when '--libhiera-ruby' then opts[:libhiera_ruby] = File.expand_path(argv.shift)
      when '--libhiera-so' then opts[:libhiera_so] = File.expand_path(argv.shift)
      when '--modes' then opts[:modes] = argv.shift.split(',')
      when '--profile' then opts[:profile] = argv.shift
      when '--probe' then opts[:probe] = true
      when '--split' then opts[:probe] = :split
      when '--hiera-cpu' then opts[:hiera_cpu] = true
      when '--threads' then opts[:threads] = Integer(argv.shift)
      when '-h', '--help'
        puts File.read(__FILE__).lines.drop(2).take_while { |l| l.start_with?('#') }.map { |l| l.sub(/^# ?/, '') }
        exit 0
      else abort "driver.rb: unknown argument #{arg}"
      end
    end
    abort 'usage: driver.rb --repo DIR [--rounds N] [--json OUT] (--help)' unless opts[:repo]
    bad = opts[:modes] - MODES
    abort "driver.rb: unknown mode(s) #{bad.join(',')}" unless bad.empty?
    opts
  end

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  def deep_dup(v)
    case v
    when Hash then v.each_with_object({}) { |(k, e), h| h[deep_dup(k)] = deep_dup(e) }
    when Array then v.map { |e| deep_dup(e) }
    when String then v.dup
    else v
    end
  end

  def median(xs)
    return nil if xs.empty?

    s = xs.sort
    n = s.size
    n.odd? ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0
  end

  # ------------------------------------------------------------ setup

  def boot(repo, opts)
    ENV['LIBHIERA_PATH'] = opts[:libhiera_so]
    $LOAD_PATH.unshift(opts[:libhiera_ruby])
    require 'puppet'
    require 'libhiera/puppet'
    @tmp = IsolatedPuppet.boot('compile-bench-', File.join(repo, 'environments'))
    Puppet[:hiera_config] = File.join(repo, 'hiera.yaml')
    $compile_bench_logs = (@logs = [])
    unless Puppet::Util::Log.desttypes.key?(:compile_bench_capture)
      Puppet::Util::Log.newdesttype :compile_bench_capture do
        def handle(msg)
          $compile_bench_logs << "#{msg.level}: #{msg.message}" if $compile_bench_logs && $compile_bench_logs.size < 10_000
        end
      end
    end
    Puppet::Util::Log.newdestination(:compile_bench_capture)
    Puppet::Util::Log.level = :warning
  end

  # A throw-away repo exercising what a compile does with Hiera: a class with
  # automatic parameter lookup, lookup() with merges, hiera(), module data,
  # interpolation. Compiled in both modes before anything is measured.
  def warm_up
    dir = File.join(@tmp, 'warmup')
    prod = File.join(dir, 'environments', 'production')
    FileUtils.mkdir_p([File.join(prod, 'data'), File.join(prod, 'manifests'),
                       File.join(prod, 'modules', 'wmod', 'data'), File.join(prod, 'modules', 'wmod', 'manifests')])
    File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n")
    File.write(File.join(prod, 'hiera.yaml'),
               "version: 5\nhierarchy:\n  - name: c\n    paths: [\"n/%{trusted.certname}.yaml\", c.yaml]\n")
    File.write(File.join(prod, 'data', 'c.yaml'),
               "lookup_options:\n  '^h.*$': {merge: deep}\nk: '%{facts.a} %{lookup(\"j\")}'\nj: x\n" \
               "h: {a: [1], b: {c: 1}}\nl: \"%{alias('h')}\"\nwmod::p: '%{facts.a}'\n")
    File.write(File.join(prod, 'modules', 'wmod', 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n")
    File.write(File.join(prod, 'modules', 'wmod', 'data', 'c.yaml'), "wmod::x: 1\nwmod::q: [a]\n")
    File.write(File.join(prod, 'modules', 'wmod', 'manifests', 'init.pp'),
               "class wmod(String $p, Integer $x, Array $q, Optional[String] $r = undef) {\n" \
               "  $h = lookup('h', Hash, 'deep', {})\n  $u = lookup('j', Array, 'unique', [])\n" \
               "  $k = lookup({'name' => 'k', 'default_value' => 'd'})\n  $m = hiera('j', 'd')\n" \
               "  $d = lookup('h.b.c')\n  notify { \"w ${p} ${x} ${k} ${m} ${d}\": }\n}\n")
    File.write(File.join(prod, 'manifests', 'site.pp'), "node default { include wmod }\n")
    saved = Puppet[:hiera_config]
    Puppet[:hiera_config] = File.join(dir, 'hiera.yaml')
    loader = Puppet::Environments::Directories.new(File.join(dir, 'environments'), [])
    Puppet.override({ environments: loader }, 'compile bench warm-up') do
      %w[puppet handoff puppet handoff].each do |mode|
        set_mode(mode)
        compile(loader.get!('production'), 'warm.example.com', { 'a' => 'b' })
      end
    end
    Libhiera::Puppet.reset!
    Puppet[:hiera_config] = saved
    @logs.clear
  end

  def set_mode(mode)
    mode == 'handoff' ? Libhiera::Puppet.accelerate! : Libhiera::Puppet.decelerate!
  end

  # One catalog compile of node `cert`, as the catalog indirector makes it
  # (Compiler.compile: the catalog converted to_resource inside). Returns
  # [catalog, HieraTimer record, hand-off counter deltas].
  def compile(env, cert, facts)
    if @pool
      # Puppet's context is per thread: the caller's environments, as
      # Puppet Server's request threads have theirs
      envs = Puppet.lookup(:environments)
      return @pool.run { Puppet.override({ environments: envs }, 'compile bench thread') { compile_here(env, cert, facts) } }
    end

    compile_here(env, cert, facts)
  end

  # N long-lived threads taking compiles in turn (--threads).
  class ThreadPool
    def initialize(size)
      @next = 0
      @inboxes = Array.new(size) do |i|
        inbox = Queue.new
        Thread.new do
          Thread.current.name = "compile-bench-#{i}"
          while (job = inbox.pop)
            job.call
          end
        end
        inbox
      end
    end

    # Runs the block on the next thread; its value, or what it raised.
    def run(&block)
      inbox = @inboxes[@next]
      @next = (@next + 1) % @inboxes.size
      done = Queue.new
      inbox << lambda do
        done << [:ok, block.call]
      rescue Exception => e # rubocop:disable Lint/RescueException
        done << [:raise, e]
      end
      kind, value = done.pop
      raise value if kind == :raise

      value
    end
  end

  def compile_here(env, cert, facts)
    before = Libhiera::Puppet.stats.dup
    probe = @probe_deltas && HandoffProbe.snapshot
    catalog = nil
    Puppet.override({ current_environment: env }, 'compile bench') do
      node = Puppet::Node.new(cert, environment: env)
      node.fact_merge(Puppet::Node::Facts.new(cert, deep_dup(facts)))
      node.add_server_facts({ 'serverversion' => Puppet.version.to_s, 'servername' => 'puppet.example.com',
                              'serverip' => '10.20.2.2' })
      trusted = Puppet::Context::TrustedInformation.new('remote', cert, {}, {})
      Puppet.override({ trusted_information: trusted }, 'compile bench trusted') do
        catalog = Puppet::Parser::Compiler.compile(node)
      end
    end
    @last_probe = probe && HandoffProbe.delta(probe)
    after = Libhiera::Puppet.stats
    delta = {}
    (before.keys | after.keys).each do |k|
      d = after[k] - before[k]
      delta[k.to_s] = d unless d.zero?
    end
    [catalog, HieraTimer.last, delta]
  end

  # What is compared between the modes: resources (type, title, exported,
  # tags, parameters), edges and classes; sorted, so that the comparison does
  # not depend on the order of evaluation.
  def canonical(catalog)
    data = catalog.to_data_hash
    resources = data['resources'].map do |r|
      r.reject { |k, _| %w[line file].include?(k) }
    end
    { 'resources' => resources.sort_by { |r| "#{r['type']}[#{r['title']}]" },
      'edges' => data['edges'].map { |e| "#{e['source']} -> #{e['target']}" }.sort,
      'classes' => data['classes'].sort }
  end

  def differences(ref, got)
    out = []
    ref_r = ref['resources'].to_h { |r| ["#{r['type']}[#{r['title']}]", r] }
    got_r = got['resources'].to_h { |r| ["#{r['type']}[#{r['title']}]", r] }
    (ref_r.keys - got_r.keys).each { |k| out << "missing resource #{k}" }
    (got_r.keys - ref_r.keys).each { |k| out << "extra resource #{k}" }
    (ref_r.keys & got_r.keys).each do |k|
      a = ref_r[k]
      b = got_r[k]
      next if a == b

      ((a.keys | b.keys) - ['parameters']).each do |f|
        out << "#{k} #{f}: #{a[f].inspect} vs #{b[f].inspect}" unless a[f] == b[f]
      end
      pa = a['parameters'] || {}
      pb = b['parameters'] || {}
      (pa.keys | pb.keys).each do |p|
        out << "#{k} #{p}: #{pa[p].inspect[0, 300]} vs #{pb[p].inspect[0, 300]}" unless pa[p] == pb[p]
      end
    end
    out << "edges differ: #{(ref['edges'] - got['edges']).first(3)} / #{(got['edges'] - ref['edges']).first(3)}" if ref['edges'] != got['edges']
    out << "classes differ: #{ref['classes'] - got['classes']} / #{got['classes'] - ref['classes']}" if ref['classes'] != got['classes']
    out
  end

  # ------------------------------------------------------------ run

  def main(argv)
    opts = parse_args(argv)
    repo = opts[:repo]
    nodes = Dir[File.join(repo, 'nodes', '*.json')].sort
    nodes = nodes.first(opts[:nodes]) if opts[:nodes]
    nodes = nodes.map { |f| [File.basename(f, '.json'), JSON.parse(File.read(f))] }
    abort "driver.rb: no nodes in #{repo}/nodes" if nodes.empty?

    t = now
    boot(repo, opts)
    # The hand-off's module first, so that the timers prepended next wrap it.
    Libhiera::Puppet.accelerate!
    Libhiera::Puppet.decelerate!
    HieraTimer.install!
    HieraTimer.cpu = true if opts[:hiera_cpu]
    @pool = ThreadPool.new(opts[:threads]) if opts[:threads].to_i.positive?
    if opts[:probe]
      require_relative 'handoff_probe'
      if opts[:probe] == :split
        HandoffProbe.install_split!
      else
        HandoffProbe.install!
      end
      @probe_deltas = []
    end
    warm_up
    boot_s = (now - t) / 1e9

    @refs = {}
    @diffs = []
    samples = Hash.new { |h, k| h[k] = [] } # mode => [record + node + round]
    first = {}
    loader = Puppet::Environments::Directories.new(File.join(repo, 'environments'), [])
    env = nil
    Puppet.override({ environments: loader }, 'compile bench') do
      # 0. one untimed compile of node 0 on a throw-away environment object:
      # the Ruby code of the repo's resource types and functions is loaded
      # once per process (as in a puppetserver that has run for a while), so
      # that the first mode measured does not pay for it.
      set_mode('puppet')
      compile(loader.get!('production'), *nodes[0])
      Libhiera::Puppet.reset!
      @logs.clear
      # 1. first compiles; the Puppet one last, so that the environment kept
      # is the one its first compile filled.
      opts[:modes].sort_by { |m| m == 'puppet' ? 1 : 0 }.each do |mode|
        set_mode(mode)
        Libhiera::Puppet.reset! if mode == 'handoff'
        env = loader.get!('production')
        GC.start
        cat, rec, delta = compile(env, *nodes[0])
        check(mode, nodes[0][0], cat, 'first')
        first[mode] = summary_of(rec, delta)
      end
      # 2. untimed warm rounds
      opts[:warm_rounds].times do |r|
        opts[:modes].each do |mode|
          set_mode(mode)
          nodes.each { |cert, facts| check(mode, cert, compile(env, cert, facts)[0], "warm #{r}") }
        end
      end
      # 3. timed rounds, alternating which mode goes first
      profile_start(opts) if opts[:profile]
      opts[:rounds].times do |round|
        order = round.even? ? opts[:modes] : opts[:modes].reverse
        order.each do |mode|
          set_mode(mode)
          GC.start
          nodes.each do |cert, facts|
            cat, rec, delta = compile(env, cert, facts)
            samples[mode] << summary_of(rec, delta).merge(round: round)
            @probe_deltas << @last_probe if @probe_deltas && mode == 'handoff'
            check(mode, cert, cat, "round #{round}")
          end
        end
      end
      profile_stop(opts) if opts[:profile]
    end
    Libhiera::Puppet.decelerate!

    result = report(opts, nodes, first, samples, boot_s)
    if @probe_deltas && !@probe_deltas.empty?
      answered = samples['handoff'].sum { |x| x[:handoff].fetch('handed_off', 0) } / samples['handoff'].size.to_f
      puts "hand-off probe: #{@probe_deltas.size} timed hand-off compiles, #{answered.round(1)} lookups answered per compile"
      HandoffProbe.report(@probe_deltas, per: answered)
      if HandoffProbe.split?
        hiera = samples['handoff'].sum { |x| x[:hiera_ms] } / samples['handoff'].size
        n = @probe_deltas.size.to_f
        kinds = Hash.new(0)
        calls = 0
        @probe_deltas.each do |d|
          d.each do |label, (c, ns)|
            kinds[label.split(':').first] += ns / n / 1e6
            calls += c
          end
        end
        over = HandoffProbe.calibrate
        puts format('time in Hiera per compile (mean) %.2f ms; by kind (exclusive):', hiera)
        kinds.sort_by { |_, ms| -ms }.each { |k, ms| puts format('  %-40s %8.2f ms %5.1f%%', k, ms, 100 * ms / hiera) }
        rest = hiera - kinds.values.sum
        puts format('  %-40s %8.2f ms %5.1f%%', 'the rest (glue, timer, probe)', rest, 100 * rest / hiera)
        puts format('  probe: %.0f wrapped calls per compile, about %.2f us each (calibrated): %.2f ms of the above',
                    calls / n, over / 1e3, calls / n * over / 1e6)
        entries = samples['handoff'].sum { |x| x[:outer].values.sum } / samples['handoff'].size.to_f
        timer = HandoffProbe.calibrate_timer
        puts format('  timer: %.0f outermost entries per compile, about %.2f us each (calibrated): %.2f ms of the above',
                    entries, timer / 1e3, entries * timer / 1e6)
      end
    end
    File.write(opts[:json], JSON.pretty_generate(result) + "\n") if opts[:json]
    unless @logs.empty?
      warn "driver.rb: #{@logs.size} log message(s) during the compiles, first ones:"
      @logs.uniq.first(8).each { |l| warn "  #{l}" }
    end
    unless @diffs.empty?
      warn "driver.rb: FAILED: #{@diffs.size} catalog(s) differ from Puppet's"
      @diffs.first(5).each do |where, lines|
        warn "  #{where}:"
        lines.first(10).each { |l| warn "    #{l}" }
      end
      return 1
    end
    0
  end

  # Compares a catalog with the node's reference (the first Puppet catalog,
  # or, when the run has no Puppet mode, the first catalog).
  def check(mode, cert, catalog, where)
    canon = canonical(catalog)
    digest = Digest::SHA256.hexdigest(JSON.generate(canon))
    ref = @refs[cert]
    if ref.nil?
      # The reference is Puppet's: a hand-off catalog seen first is kept
      # until Puppet's arrives, and compared with it then.
      @refs[cert] = { digest: digest, canon: canon, mode: mode, resources: canon['resources'].size }
      return
    end
    if ref[:mode] != 'puppet' && mode == 'puppet'
      @refs[cert] = { digest: digest, canon: canon, mode: mode, resources: canon['resources'].size }
      pending = ref
      ref = @refs[cert]
      canon = pending[:canon]
      digest = pending[:digest]
      mode = pending[:mode]
    end
    return if digest == ref[:digest]

    @diffs << ["#{cert}, #{mode}, #{where}", differences(ref[:canon], canon)]
  end

  def summary_of(rec, delta)
    { node: rec[:node], total_ms: rec[:total_ns] / 1e6, hiera_ms: rec[:hiera_ns] / 1e6,
      hiera_cpu_ms: rec[:hiera_cpu_ns] && rec[:hiera_cpu_ns] / 1e6,
      cpu_ms: rec[:cpu_ns] && rec[:cpu_ns] / 1e6, gc_ms: rec[:gc_ns] && rec[:gc_ns] / 1e6,
      alloc_mb: rec[:alloc_bytes] && rec[:alloc_bytes] / 1e6, entries: rec[:entries].dup, outer: rec[:outer].dup,
      handoff: delta }
  end

  def mode_stats(list)
    totals = list.map { |s| s[:total_ms] }
    hieras = list.map { |s| s[:hiera_ms] }
    cpu = list.map { |s| s[:cpu_ms] }.compact
    hiera_cpu = list.map { |s| s[:hiera_cpu_ms] }.compact
    by_round = list.group_by { |s| s[:round] }.sort.to_h
    gcs = list.map { |s| s[:gc_ms] }.compact
    allocs = list.map { |s| s[:alloc_mb] }.compact
    per_node = list.group_by { |s| s[:node] }.transform_values do |ss|
      { 'compile_ms' => median(ss.map { |s| s[:total_ms] }).round(2), 'hiera_ms' => median(ss.map { |s| s[:hiera_ms] }).round(2),
        'lookups' => ss.first[:entries][HieraTimer::LOOKUP_LABEL] }
    end
    counters = Hash.new(0)
    list.each { |s| s[:handoff].each { |k, v| counters[k] += v } }
    entries = Hash.new(0)
    outer = Hash.new(0)
    list.each do |s|
      s[:entries].each { |k, v| entries[k] += v }
      s[:outer].each { |k, v| outer[k] += v }
    end
    n = list.size.to_f
    { 'compiles' => list.size,
      'compile_ms_median' => median(totals).round(2), 'hiera_ms_median' => median(hieras).round(2),
      'compile_ms_mean' => (totals.sum / n).round(2), 'hiera_ms_mean' => (hieras.sum / n).round(2),
      'hiera_share' => (hieras.sum / totals.sum).round(4),
      'cpu_share' => cpu.empty? ? nil : (cpu.sum / totals.sum).round(3),
      'cpu_ms_median' => cpu.empty? ? nil : median(cpu).round(2),
      'hiera_cpu_ms_median' => hiera_cpu.empty? ? nil : median(hiera_cpu).round(2),
      'hiera_cpu_ms_mean' => hiera_cpu.empty? ? nil : (hiera_cpu.sum / hiera_cpu.size).round(2),
      # the warm-up still going on in the timed rounds (JRuby, the JVM's JIT)
      'hiera_ms_by_round' => by_round.transform_values { |ss| median(ss.map { |s| s[:hiera_ms] }).round(2) },
      'hiera_cpu_ms_by_round' => hiera_cpu.empty? ? nil : by_round.transform_values { |ss| median(ss.map { |s| s[:hiera_cpu_ms] }).round(2) },
      'gc_ms_mean' => gcs.empty? ? nil : (gcs.sum / gcs.size).round(2),
      'alloc_mb_mean' => allocs.empty? ? nil : (allocs.sum / allocs.size).round(2),
      'lookups_per_compile' => (entries[HieraTimer::LOOKUP_LABEL] / n).round(1),
      'entries_per_compile' => entries.transform_values { |v| (v / n).round(1) },
      'outermost_entries_per_compile' => outer.transform_values { |v| (v / n).round(1) },
      'handoff_counters_per_compile' => counters.transform_values { |v| (v / n).round(1) },
      'per_node' => per_node }
  end

  def report(opts, nodes, first, samples, boot_s)
    stats = samples.transform_values { |l| mode_stats(l) }
    commit = begin
      `git -C #{ROOT} rev-parse --short HEAD 2>/dev/null`.strip
    rescue StandardError
      ''
    end
    result = {
      'repo' => opts[:repo], 'nodes' => nodes.map(&:first), 'rounds' => opts[:rounds], 'warm_rounds' => opts[:warm_rounds],
      'ruby' => RUBY_DESCRIPTION, 'puppet' => Puppet.version, 'libhiera' => Libhiera::Native.hiera_version,
      'libhiera_so' => Libhiera::Native.path, 'libhiera_ruby' => opts[:libhiera_ruby], 'commit' => commit,
      'boot_seconds' => boot_s.round(2), 'timer_entry_points' => HieraTimer.installed, 'timer_skipped' => HieraTimer.skipped,
      'resources_per_catalog' => @refs.transform_values { |r| r[:resources] },
      'catalogs_identical' => @diffs.empty?, 'catalog_differences' => @diffs.size,
      'first_compile' => first.transform_values { |s| { 'node' => s[:node], 'compile_ms' => s[:total_ms].round(2), 'hiera_ms' => s[:hiera_ms].round(2) } },
      'modes' => stats,
    }
    if stats['puppet'] && stats['handoff']
      p = stats['puppet']
      h = stats['handoff']
      result['ratios'] = {
        'compile' => (p['compile_ms_median'] / h['compile_ms_median']).round(3),
        'hiera' => (p['hiera_ms_median'] / h['hiera_ms_median']).round(3),
        'first_compile' => (first['puppet'][:total_ms] / first['handoff'][:total_ms]).round(3),
        'first_compile_hiera' => (first['puppet'][:hiera_ms] / first['handoff'][:hiera_ms]).round(3),
      }
    end
    print_report(result)
    result
  end

  def print_report(r)
    puts "== #{r['repo']}: #{r['nodes'].size} nodes, #{r['rounds']} timed rounds (+#{r['warm_rounds']} warm), " \
         "libhiera #{r['libhiera']} (#{r['libhiera_so']}), Puppet #{r['puppet']}, commit #{r['commit']}"
    puts "catalogs: #{r['catalogs_identical'] ? 'identical in both modes' : "#{r['catalog_differences']} DIFFERENT"}; " \
         "resources per catalog #{r['resources_per_catalog'].values.minmax.join('-')}"
    puts format('%-10s %12s %12s %8s %10s %14s %10s %10s', 'mode', 'ms/compile', 'ms in Hiera', 'Hiera %', 'lookups', 'first compile', '(Hiera)', 'CPU share')
    r['modes'].each do |mode, s|
      f = r['first_compile'][mode]
      puts format('%-10s %12.1f %12.1f %7.1f%% %10.1f %14.1f %10.1f %10s', mode, s['compile_ms_median'], s['hiera_ms_median'],
                  100 * s['hiera_share'], s['lookups_per_compile'], f ? f['compile_ms'] : 0, f ? f['hiera_ms'] : 0, s['cpu_share'])
    end
    if (q = r['ratios'])
      puts format('Puppet/hand-off: compile %.2fx, Hiera %.2fx; first compile %.2fx (Hiera %.2fx)',
                  q['compile'], q['hiera'], q['first_compile'], q['first_compile_hiera'])
    end
    puts 'per node (median ms: compile, Hiera; per mode):'
    nodes = r['modes'].values.first['per_node'].keys
    nodes.each do |n|
      cols = r['modes'].map { |mode, s| format('%s %7.1f %6.1f', mode, s['per_node'][n]['compile_ms'], s['per_node'][n]['hiera_ms']) }
      puts format('  %-28s %s', n, cols.join('   '))
    end
    r['modes'].each do |mode, s|
      puts "#{mode}: GC ms per compile (mean) #{s['gc_ms_mean'] || '-'}, MB allocated by the compiling thread per compile (mean) #{s['alloc_mb_mean'] || '-'}"
      puts "#{mode}: ms in Hiera by timed round (median) #{s['hiera_ms_by_round'].values.join(', ')}"
      puts "#{mode}: CPU ms in Hiera by timed round (median) #{s['hiera_cpu_ms_by_round'].values.join(', ')}" if s['hiera_cpu_ms_by_round']
      if s['hiera_cpu_ms_median']
        puts "#{mode}: CPU ms of the compiling thread per compile (median) #{s['cpu_ms_median']}, in Hiera " \
             "#{s['hiera_cpu_ms_median']} (median), #{s['hiera_cpu_ms_mean']} (mean)"
      end
      puts "#{mode}: outermost entries per compile #{s['outermost_entries_per_compile']}"
      puts "#{mode}: hand-off counters per compile #{s['handoff_counters_per_compile']}" unless s['handoff_counters_per_compile'].empty?
    end
    puts "timer skipped (absent): #{r['timer_skipped'].join(', ')}" unless r['timer_skipped'].empty?
  end

  # --profile OUT: the timed rounds' hand-off passes under stackprof (wall
  # mode, raw), if the stackprof gem is available.
  # Under JRuby, --profile FILE.jfr records the timed rounds only (after
  # the warm rounds: the steady state) with the JVM's Flight Recorder, at
  # JFR's profile settings or those of $COMPILE_BENCH_JFC (a .jfc file, e.g.
  # execution samples every 1 ms); read it with jfr_report.rb.
  def profile_start(opts)
    return jfr_start(opts) if RUBY_ENGINE == 'jruby' && opts[:profile].end_with?('.jfr')

    require 'stackprof'
    StackProf.start(mode: :wall, interval: 200, raw: true)
  rescue LoadError
    warn 'driver.rb: --profile needs the stackprof gem (Debian: ruby-stackprof)'
    opts[:profile] = nil
  end

  def jfr_start(_opts)
    jfc = ENV['COMPILE_BENCH_JFC']
    config = if jfc
               Java::JdkJfr::Configuration.create(java.nio.file.Paths.get(jfc))
             else
               Java::JdkJfr::Configuration.getConfiguration('profile')
             end
    @jfr = Java::JdkJfr::Recording.new(config)
    @jfr.start
  end

  def profile_stop(opts)
    if @jfr
      @jfr.stop
      @jfr.dump(java.nio.file.Paths.get(File.expand_path(opts[:profile])))
      @jfr.close
      return
    end
    StackProf.stop
    StackProf.results(opts[:profile])
  end
end

exit(CompileBench.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
