#!/usr/bin/env ruby
# frozen_string_literal: true
#
# The client of benches/compile/server-run (plain Ruby, MRI): compiles a
# repo's nodes over HTTP (POST /puppet/v4/catalog) on two running Puppet
# Servers, one stock and one with the libhiera hand-off, both with the
# compile benchmark's timer installed (server_timer.rb), and reports as
# driver.rb does.
#
#   ruby benches/compile/server_bench.rb --repo DIR --name NAME   (server-run passes 3 and 3)
#        --server MODE=URL,LOGDIR [--server MODE=URL,LOGDIR]
#        [--rounds N (5)] [--warm-rounds N (1)] [--nodes N] [--json OUT]
#        [--steady-rounds N (0)] [--steady-window W (3)] [--steady-min M (2W)]
#        [--steady-tolerance T (0.03)] [--meta KEY=VALUE ...]
#
# MODE is puppet (stock) or handoff; LOGDIR the server's Puppet logdir (its
# puppetserver.log and the timer's compile-bench-records.jsonl).
#
# 1. first compile: node 0 on each server, which must be fresh (no compile
#    yet: the first compile of the JRuby instance, with its environment
#    object new and every lazily loaded piece of Puppet and of the repo's
#    Ruby code loaded then);
# 2. --warm-rounds (1) untimed passes over the nodes on each server;
# 3. --rounds (5) timed rounds: every node on one server, then every node on
#    the other, which goes first alternating by round: the early rounds,
#    the warm-up as a freshly started server goes through it;
# 4. --steady-rounds N (0: none): the steady state of a server that has run
#    for long (the JVM's C2 keeps compiling JRuby's bytecode for many
#    compiles): more rounds, timed and alternating as the early ones, until
#    both servers' by-round medians are flat (once --steady-min M (2W) steady
#    rounds and 12 passes over the nodes in all have run: both servers'
#    median of ms in Hiera and of ms per compile over the last W rounds
#    within --steady-tolerance T (3%) of those of the W rounds before, in
#    either direction: a server whose times still rise is not steady either;
#    before jruby9 only a fall counted, so a stock server slowing through the
#    run stopped it) or N rounds. The
#    steady-state figures are the medians over the last W rounds, reported
#    beside (never instead of) the first compile and the early rounds.
# Per compile: the HTTP wall time (the client's), the compile and the time in
# Hiera (the timer, inside the server: Compiler#compile, outermost entries of
# HieraTimer::ENTRY_POINTS), and the hand-off's counters (its
# "libhiera hand-off: catalog for ..." line in puppetserver.log).
# Every catalog (resources in order with their parameters, tags, file and
# line; edges; classes) is compared with the stock server's first catalog of
# the node: any difference fails the run (exit 1), as does a hand-off compile
# with declined lookups or errors, or a record missing.

require 'json'
require 'net/http'
require 'digest'

module ServerBench
  MODES = %w[puppet handoff].freeze
  RECORDS = 'compile-bench-records.jsonl'
  COUNTER_RE = /libhiera hand-off: catalog for (\S+) in environment (\S+): (\d+) lookups answered, (\d+) declined(?: \(([^)]*)\))?, (\d+) errors/.freeze

  module_function

  def parse_args(argv)
    opts = { rounds: 5, warm_rounds: 1, steady_rounds: 0, steady_window: 3, steady_min: nil, steady_tolerance: 0.03,
             nodes: nil, servers: {}, meta: {} }
    until argv.empty?
      arg = argv.shift
      case arg
      when '--repo' then opts[:repo] = File.expand_path(argv.shift)
      when '--name' then opts[:name] = argv.shift
      when '--server'
        mode, rest = argv.shift.split('=', 2)
        url, logdir = rest.split(',', 2)
        abort "server_bench.rb: unknown mode #{mode}" unless MODES.include?(mode)
        opts[:servers][mode] = { url: url, logdir: logdir }
      when '--rounds' then opts[:rounds] = Integer(argv.shift)
      when '--warm-rounds' then opts[:warm_rounds] = Integer(argv.shift)
      when '--nodes' then opts[:nodes] = Integer(argv.shift)
      when '--steady-rounds' then opts[:steady_rounds] = Integer(argv.shift)
      when '--steady-window' then opts[:steady_window] = Integer(argv.shift)
      when '--steady-min' then opts[:steady_min] = Integer(argv.shift)
      when '--steady-tolerance' then opts[:steady_tolerance] = Float(argv.shift)
      when '--json' then opts[:json] = argv.shift
      when '--meta'
        k, v = argv.shift.split('=', 2)
        opts[:meta][k] = v
      else abort "server_bench.rb: unknown argument #{arg}"
      end
    end
    abort 'usage: server_bench.rb --repo DIR --server MODE=URL,LOGDIR ...' unless opts[:repo] && !opts[:servers].empty?
    opts[:name] ||= File.basename(opts[:repo])
    opts[:steady_min] ||= 2 * opts[:steady_window]
    opts
  end

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  def median(xs)
    return nil if xs.empty?

    s = xs.sort
    n = s.size
    n.odd? ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0
  end

  def request_body(cert, facts)
    hostname, domain = cert.split('.', 2)
    trusted = { 'authenticated' => 'remote', 'certname' => cert, 'extensions' => {}, 'hostname' => hostname,
                'domain' => domain, 'external' => {} }
    JSON.generate('certname' => cert, 'environment' => 'production',
                  'persistence' => { 'facts' => false, 'catalog' => false },
                  'facts' => { 'values' => facts }, 'trusted_facts' => { 'values' => trusted },
                  'transaction_uuid' => 'a7d0c3b8-0000-4000-8000-000000000001')
  end

  # What must be the same (as ruby/test/puppetserver/helper.rb): every
  # resource in order (type, title, parameters, tags, exported/virtual, file
  # and line), every edge, the classes; not the catalog's identity.
  def normalized(catalog)
    resources = catalog.fetch('resources').map do |r|
      r.slice('type', 'title', 'parameters', 'tags', 'exported', 'virtual', 'file', 'line', 'sensitive_parameters')
    end
    { 'name' => catalog['name'], 'environment' => catalog['environment'], 'classes' => catalog['classes'],
      'resources' => resources, 'edges' => catalog.fetch('edges') }
  end

  def differences(a, b)
    out = []
    ra = a['resources'].map { |r| JSON.generate(r) }
    rb = b['resources'].map { |r| JSON.generate(r) }
    (ra - rb).first(5).each { |r| out << "only in stock: #{r[0, 600]}" }
    (rb - ra).first(5).each { |r| out << "only in hand-off: #{r[0, 600]}" }
    out << 'resources in another order' if out.empty? && ra != rb
    out << "edges differ: #{(a['edges'] - b['edges']).first(3)} / #{(b['edges'] - a['edges']).first(3)}" if a['edges'] != b['edges']
    out << "classes differ: #{a['classes'] - b['classes']} / #{b['classes'] - a['classes']}" if a['classes'] != b['classes']
    out << 'name or environment differ' if a.values_at('name', 'environment') != b.values_at('name', 'environment')
    out
  end

  class Client
    attr_reader :mode, :logdir

    def initialize(mode, url, logdir)
      @mode = mode
      @uri = URI("#{url}/puppet/v4/catalog")
      @logdir = logdir
    end

    # [catalog (Hash), HTTP wall ms]. A connection per compile, as an agent
    # run makes (the server closes idle ones), its connect timed too.
    def compile(body)
      t0 = ServerBench.now
      res = Net::HTTP.start(@uri.host, @uri.port, read_timeout: 900) do |http|
        http.post(@uri.path, body, 'Content-Type' => 'application/json', 'Accept' => 'application/json')
      end
      ms = (ServerBench.now - t0) / 1e6
      raise "#{@mode}: POST #{@uri}: HTTP #{res.code}: #{res.body[0, 2000]}" unless res.code == '200'

      [JSON.parse(res.body).fetch('catalog'), ms]
    end

    def records
      path = File.join(@logdir, RECORDS)
      File.exist?(path) ? File.readlines(path).map { |l| JSON.parse(l) } : []
    end

    def log_lines
      File.readlines(File.join(@logdir, 'puppetserver.log'))
    end

    def counters
      log_lines.grep(/libhiera hand-off: catalog for /).map do |l|
        m = COUNTER_RE.match(l) or raise "unexpected compile line: #{l}"
        { 'node' => m[1], 'answered' => Integer(m[3]), 'declined' => Integer(m[4]), 'declined_reasons' => m[5],
          'errors' => Integer(m[6]) }
      end
    end

  end

  def main(argv)
    opts = parse_args(argv)
    repo = opts[:repo]
    nodes = Dir[File.join(repo, 'nodes', '*.json')].sort
    nodes = nodes.first(opts[:nodes]) if opts[:nodes]
    nodes = nodes.map { |f| [File.basename(f, '.json'), JSON.parse(File.read(f))] }
    abort "server_bench.rb: no nodes in #{repo}/nodes" if nodes.empty?
    bodies = nodes.to_h { |cert, facts| [cert, request_body(cert, facts)] }
    modes = MODES.select { |m| opts[:servers].key?(m) }
    clients = modes.to_h { |m| [m, Client.new(m, opts[:servers][m][:url], opts[:servers][m][:logdir])] }
    @clients = clients
    clients.each_value do |c|
      raise "#{c.mode}: the server has compiled before the benchmark (#{c.records.size} records)" unless c.records.empty?
    end

    @refs = {}
    @diffs = []
    samples = [] # { mode, node, round, http_ms, resources }
    run = lambda do |mode, cert, round|
      catalog, ms = clients[mode].compile(bodies[cert])
      check(mode, cert, catalog, round)
      samples << { 'mode' => mode, 'node' => cert, 'round' => round, 'http_ms' => ms, 'resources' => catalog['resources'].size,
                   'at' => Time.now.utc.strftime('%H:%M:%S.%L') }
    end

    t_start = now
    # 1. the first compile of each fresh server (stock first: its catalog is
    # the reference)
    modes.each { |m| run.call(m, nodes[0][0], 'first') }
    # 2. warm rounds
    opts[:warm_rounds].times do |r|
      modes.each { |m| nodes.each { |cert, _| run.call(m, cert, "warm#{r}") } }
    end
    # 3. timed rounds, alternating which server goes first
    opts[:rounds].times do |round|
      order = round.even? ? modes : modes.reverse
      order.each { |m| nodes.each { |cert, _| run.call(m, cert, round) } }
    end
    # 4. the steady state: rounds "s0", "s1", ... until flat (or N rounds)
    @steady = { 'rounds_run' => 0, 'window' => opts[:steady_window], 'flat' => false, 'min' => opts[:steady_min],
                'tolerance' => opts[:steady_tolerance] }
    opts[:steady_rounds].times do |round|
      order = (opts[:rounds] + round).even? ? modes : modes.reverse
      order.each { |m| nodes.each { |cert, _| run.call(m, cert, "s#{round}") } }
      @steady['rounds_run'] = round + 1
      next if round + 1 + opts[:warm_rounds] + opts[:rounds] < 12 || round + 1 < opts[:steady_min]

      break if (@steady['flat'] = steady_flat?(samples, modes, round + 1, opts[:steady_window], opts[:steady_tolerance]))
    end
    elapsed = (now - t_start) / 1e9

    # Records and counters, in the order of the compiles of each server.
    problems = []
    modes.each do |mode|
      c = clients[mode]
      mine = samples.select { |s| s['mode'] == mode }
      recs = c.records
      if recs.size != mine.size
        problems << "#{mode}: #{recs.size} timer records for #{mine.size} compiles"
        next
      end
      counts = mode == 'handoff' ? c.counters : []
      if mode == 'handoff' && counts.size != mine.size
        problems << "#{mode}: #{counts.size} hand-off compile lines for #{mine.size} compiles"
        counts = []
      end
      mine.each_with_index do |s, i|
        r = recs[i]
        problems << "#{mode}: compile #{i + 1} is #{s['node']}, its record #{r['node']}" unless r['node'] == s['node']
        s.merge!(r.slice('total_ms', 'hiera_ms', 'cpu_ms', 'hiera_cpu_ms', 'gc_ms', 'alloc_mb', 'lookups', 'outer'))
        next unless (k = counts[i])

        problems << "#{mode}: compile #{i + 1} is #{s['node']}, its log line #{k['node']}" unless k['node'] == s['node']
        s['handoff'] = k.reject { |key, _| key == 'node' }
        problems << "#{mode}: compile #{i + 1} (#{s['node']}): lookups went to Puppet: #{k['declined_reasons']}" if k['declined'].positive?
        problems << "#{mode}: compile #{i + 1} (#{s['node']}): #{k['errors']} lookup errors" if k['errors'].positive?
        problems << "#{mode}: compile #{i + 1} (#{s['node']}): the hand-off answered no lookup" unless k['answered'].positive?
      end
      if mode == 'puppet' && c.log_lines.any? { |l| l.include?('libhiera') }
        problems << 'puppet: the stock server logged libhiera lines'
      end
    end

    result = report(opts, nodes, modes, samples, elapsed, clients)
    File.write(opts[:json], JSON.pretty_generate(result) + "\n") if opts[:json]
    status = 0
    unless @diffs.empty?
      warn "server_bench.rb: FAILED: #{@diffs.size} catalog(s) differ from the stock server's"
      @diffs.first(5).each do |where, lines|
        warn "  #{where}:"
        lines.first(10).each { |l| warn "    #{l}" }
      end
      status = 1
    end
    unless problems.empty?
      warn "server_bench.rb: FAILED: #{problems.size} problem(s)"
      problems.first(10).each { |p| warn "  #{p}" }
      status = 1
    end
    status
  end

  # Steady-state rounds' samples of a mode, by round (s0, s1, ...), from the
  # timer's records as they are appended (the per-compile records are matched
  # to the samples only at the end).
  def steady_medians(samples, mode, from, to)
    recs = @clients[mode].records
    mine = samples.each_index.select { |i| samples[i]['mode'] == mode }
    by_round = Hash.new { |h, k| h[k] = [] }
    mine.each_with_index do |i, j|
      s = samples[i]
      next unless s['round'].is_a?(String) && s['round'].start_with?('s') && (r = recs[j])

      n = Integer(s['round'][1..])
      by_round[n] << r if n >= from && n < to
    end
    list = by_round.values.flatten
    # CPU times when the server records them in Hiera (--hiera-cpu): the
    # machine's load inflates them far less than wall times
    if list.all? { |r| r['hiera_cpu_ms'] && r['cpu_ms'] }
      [median(list.map { |r| r['hiera_cpu_ms'] }), median(list.map { |r| r['cpu_ms'] })]
    else
      [median(list.map { |r| r['hiera_ms'] }.compact), median(list.map { |r| r['total_ms'] }.compact)]
    end
  end

  def steady_flat?(samples, modes, done, w, tol)
    return false if done < 2 * w

    modes.all? do |m|
      last = steady_medians(samples, m, done - w, done)
      before = steady_medians(samples, m, done - 2 * w, done - w)
      last.zip(before).all? { |a, b| a && b && (a - b).abs <= tol * b }
    end
  end

  # Compares a catalog with the node's reference: the stock server's first
  # catalog of the node (the first catalog, when only one server runs).
  def check(mode, cert, catalog, round)
    canon = normalized(catalog)
    digest = Digest::SHA256.hexdigest(JSON.generate(canon))
    ref = @refs[cert]
    if ref.nil? || (ref[:mode] != 'puppet' && mode == 'puppet')
      @refs[cert] = { digest: digest, canon: canon, mode: mode, resources: canon['resources'].size }
      return if ref.nil?

      # a hand-off catalog came first: compared with Puppet's now
      catalog_mode, canon, digest = ref[:mode], ref[:canon], ref[:digest]
      ref = @refs[cert]
      mode = catalog_mode
    end
    return if digest == ref[:digest]

    @diffs << ["#{cert}, #{mode}, round #{round}", differences(ref[:canon], canon)]
  end

  def mode_stats(list)
    n = list.size.to_f
    totals = list.map { |s| s['total_ms'] }.compact
    hieras = list.map { |s| s['hiera_ms'] }.compact
    https = list.map { |s| s['http_ms'] }
    cpu = list.map { |s| s['cpu_ms'] }.compact
    gcs = list.map { |s| s['gc_ms'] }.compact
    allocs = list.map { |s| s['alloc_mb'] }.compact
    outer = Hash.new(0)
    list.each { |s| (s['outer'] || {}).each { |k, v| outer[k] += v } }
    counters = Hash.new(0)
    list.each { |s| (s['handoff'] || {}).each { |k, v| counters[k] += v if v.is_a?(Integer) } }
    per_node = list.group_by { |s| s['node'] }.transform_values do |ss|
      { 'http_ms' => median(ss.map { |s| s['http_ms'] }).round(2),
        'compile_ms' => median(ss.map { |s| s['total_ms'] }.compact)&.round(2),
        'hiera_ms' => median(ss.map { |s| s['hiera_ms'] }.compact)&.round(2), 'lookups' => ss.first['lookups'] }
    end
    per_round = list.group_by { |s| s['round'] }.transform_values do |ss|
      { 'compile_ms_median' => median(ss.map { |s| s['total_ms'] }.compact)&.round(2),
        'hiera_ms_median' => median(ss.map { |s| s['hiera_ms'] }.compact)&.round(2),
        'cpu_ms_median' => median(ss.map { |s| s['cpu_ms'] }.compact)&.round(2),
        'hiera_cpu_ms_median' => median(ss.map { |s| s['hiera_cpu_ms'] }.compact)&.round(2) }
    end
    { 'compiles' => list.size,
      'http_ms_median' => median(https).round(2),
      'compile_ms_median' => median(totals)&.round(2), 'hiera_ms_median' => median(hieras)&.round(2),
      'cpu_ms_median' => median(cpu)&.round(2),
      'hiera_cpu_ms_median' => median(list.map { |s| s['hiera_cpu_ms'] }.compact)&.round(2),
      'http_ms_mean' => (https.sum / n).round(2),
      'compile_ms_mean' => totals.empty? ? nil : (totals.sum / totals.size).round(2),
      'hiera_ms_mean' => hieras.empty? ? nil : (hieras.sum / hieras.size).round(2),
      'hiera_share' => totals.empty? ? nil : (hieras.sum / totals.sum).round(4),
      'outside_compile_ms_median' => median(list.map { |s| s['total_ms'] && s['http_ms'] - s['total_ms'] }.compact)&.round(2),
      'cpu_share' => cpu.empty? || totals.empty? ? nil : (cpu.sum / totals.sum).round(3),
      'gc_ms_mean' => gcs.empty? ? nil : (gcs.sum / gcs.size).round(2),
      'alloc_mb_mean' => allocs.empty? ? nil : (allocs.sum / allocs.size).round(2),
      'lookups_per_compile' => (list.sum { |s| s['lookups'] || 0 } / n).round(1),
      'outermost_entries_per_compile' => outer.transform_values { |v| (v / n).round(1) },
      'handoff_counters_per_compile' => counters.transform_values { |v| (v / n).round(1) },
      'per_round' => per_round, 'per_node' => per_node }
  end

  def report(opts, nodes, modes, samples, elapsed, clients)
    timed = samples.select { |s| s['round'].is_a?(Integer) }
    stats = modes.to_h { |m| [m, mode_stats(timed.select { |s| s['mode'] == m })] }
    first = samples.select { |s| s['round'] == 'first' }.to_h do |s|
      [s['mode'], s.slice('node', 'http_ms', 'total_ms', 'hiera_ms', 'lookups', 'handoff').transform_values { |v| v.is_a?(Float) ? v.round(2) : v }]
    end
    result = {
      'repo' => opts[:name], 'repo_dir' => opts[:repo], 'nodes' => nodes.map(&:first), 'rounds' => opts[:rounds],
      'warm_rounds' => opts[:warm_rounds], 'client_ruby' => RUBY_DESCRIPTION, 'seconds' => elapsed.round(1),
      'resources_per_catalog' => @refs.transform_values { |r| r[:resources] },
      'catalogs_identical' => @diffs.empty?, 'catalog_differences' => @diffs.size,
      'hand_off_on' => clients['handoff'] && clients['handoff'].log_lines.grep(/libhiera hand-off: on \(/).first&.strip,
      'timer' => modes.to_h { |m| [m, clients[m].log_lines.grep(/compile bench: timer installed/).first&.strip] },
      'first_compile' => first, 'modes' => stats,
    }
    steady_rounds = samples.map { |s| s['round'] }.grep(/\As\d+\z/).uniq
    unless steady_rounds.empty?
      last = steady_rounds.last(opts[:steady_window])
      result['steady'] = @steady.merge(
        'rounds_measured' => last,
        'modes' => modes.to_h { |m| [m, mode_stats(samples.select { |s| s['mode'] == m && last.include?(s['round']) })] },
        'per_round' => modes.to_h do |m|
          [m, mode_stats(samples.select { |s| s['mode'] == m && steady_rounds.include?(s['round']) })['per_round']]
        end
      )
    end
    result['compiles'] = samples
    result.merge!(opts[:meta])
    if stats['puppet'] && stats['handoff']
      p = stats['puppet']
      h = stats['handoff']
      ratio = ->(a, b) { a && b && b.positive? ? (a / b.to_f).round(3) : nil }
      result['ratios'] = {
        'http' => ratio.(p['http_ms_median'], h['http_ms_median']),
        'compile' => ratio.(p['compile_ms_median'], h['compile_ms_median']),
        'hiera' => ratio.(p['hiera_ms_median'], h['hiera_ms_median']),
        'first_compile_http' => ratio.(first.dig('puppet', 'http_ms'), first.dig('handoff', 'http_ms')),
        'first_compile' => ratio.(first.dig('puppet', 'total_ms'), first.dig('handoff', 'total_ms')),
        'first_compile_hiera' => ratio.(first.dig('puppet', 'hiera_ms'), first.dig('handoff', 'hiera_ms')),
        'compile_cpu' => ratio.(p['cpu_ms_median'], h['cpu_ms_median']),
        'hiera_cpu' => ratio.(p['hiera_cpu_ms_median'], h['hiera_cpu_ms_median']),
      }
      if (st = result['steady'])
        p = st['modes']['puppet']
        h = st['modes']['handoff']
        result['ratios'].merge!(
          'steady_http' => ratio.(p['http_ms_median'], h['http_ms_median']),
          'steady_compile' => ratio.(p['compile_ms_median'], h['compile_ms_median']),
          'steady_hiera' => ratio.(p['hiera_ms_median'], h['hiera_ms_median']),
          'steady_compile_cpu' => ratio.(p['cpu_ms_median'], h['cpu_ms_median']),
          'steady_hiera_cpu' => ratio.(p['hiera_cpu_ms_median'], h['hiera_cpu_ms_median'])
        )
      end
    end
    print_report(result)
    result
  end

  def f1(v)
    v.nil? ? '-' : format('%.1f', v)
  end

  def print_report(r)
    puts "== Puppet Server, #{r['repo']}: #{r['nodes'].size} nodes, #{r['rounds']} timed rounds " \
         "(+#{r['warm_rounds']} warm, after the first compile), #{r['seconds']} s of compiles"
    puts "catalogs: #{r['catalogs_identical'] ? 'identical on both servers' : "#{r['catalog_differences']} DIFFERENT"}; " \
         "resources per catalog #{r['resources_per_catalog'].values.minmax.join('-')}"
    puts format('%-8s %9s %11s %10s %8s %9s %10s %15s %9s %9s', 'server', 'HTTP ms', 'ms/compile', 'ms Hiera',
                'Hiera %', 'lookups', 'CPU share', 'first: HTTP ms', 'compile', 'Hiera')
    r['modes'].each do |mode, s|
      f = r['first_compile'][mode] || {}
      puts format('%-8s %9s %11s %10s %7s%% %9s %10s %15s %9s %9s', mode, f1(s['http_ms_median']), f1(s['compile_ms_median']),
                  f1(s['hiera_ms_median']), s['hiera_share'] ? f1(100 * s['hiera_share']) : '-', f1(s['lookups_per_compile']),
                  s['cpu_share'] || '-', f1(f['http_ms']), f1(f['total_ms']), f1(f['hiera_ms']))
    end
    if (q = r['ratios'])
      puts "stock/hand-off: HTTP #{q['http']}x, compile #{q['compile']}x, Hiera #{q['hiera']}x; first compile: " \
           "HTTP #{q['first_compile_http']}x, compile #{q['first_compile']}x, Hiera #{q['first_compile_hiera']}x"
    end
    r['modes'].each do |mode, s|
      puts "#{mode}: GC ms per compile (mean, the JVM's collectors) #{s['gc_ms_mean'] || '-'}, " \
           "MB allocated by the compiling thread per compile (mean) #{s['alloc_mb_mean'] || '-'}"
    end
    if (q = r['ratios']) && q['hiera_cpu']
      puts "CPU ms (compiling thread, median): " +
           r['modes'].map { |mode, s| "#{mode} compile #{f1(s['cpu_ms_median'])}, Hiera #{f1(s['hiera_cpu_ms_median'])}" }.join('; ') +
           "; stock/hand-off: compile #{q['compile_cpu']}x, Hiera #{q['hiera_cpu']}x"
    end
    puts 'per round (median ms: compile, Hiera; CPU ms: compile, Hiera):'
    r['modes'].each do |mode, s|
      puts "  #{mode}: " + s['per_round'].map { |k, v|
        "#{k}: #{f1(v['compile_ms_median'])} #{f1(v['hiera_ms_median'])}; #{f1(v['cpu_ms_median'])} #{f1(v['hiera_cpu_ms_median'])}"
      }.join(', ')
    end
    puts 'per node (median ms: HTTP, compile, Hiera):'
    r['nodes'].each do |n|
      cols = r['modes'].map do |mode, s|
        pn = s['per_node'][n]
        format('%-7s %7s %7s %6s', mode, f1(pn['http_ms']), f1(pn['compile_ms']), f1(pn['hiera_ms']))
      end
      puts format('  %-28s %s', n, cols.join('   '))
    end
    r['modes'].each do |mode, s|
      puts "#{mode}: outermost entries per compile #{s['outermost_entries_per_compile']}"
      puts "#{mode}: hand-off counters per compile #{s['handoff_counters_per_compile']}" unless s['handoff_counters_per_compile'].empty?
    end
    if (st = r['steady'])
      puts "== steady state: #{st['rounds_run']} more timed rounds (#{st['flat'] ? "both servers' by-round medians flat within #{(100 * st['tolerance']).round(1)}%" : 'NOT flat: the rounds ran out'}); " \
           "medians over the last #{st['rounds_measured'].size} (#{st['rounds_measured'].join(', ')})"
      puts format('%-8s %9s %11s %10s %8s %10s %10s %12s %13s', 'server', 'HTTP ms', 'ms/compile', 'ms Hiera', 'Hiera %',
                  'CPU share', 'GC ms', 'CPU ms/comp', 'CPU ms Hiera')
      st['modes'].each do |mode, s|
        puts format('%-8s %9s %11s %10s %7s%% %10s %10s %12s %13s', mode, f1(s['http_ms_median']), f1(s['compile_ms_median']),
                    f1(s['hiera_ms_median']), s['hiera_share'] ? f1(100 * s['hiera_share']) : '-', s['cpu_share'] || '-',
                    s['gc_ms_mean'] || '-', f1(s['cpu_ms_median']), f1(s['hiera_cpu_ms_median']))
      end
      if (q = r['ratios']) && q['steady_hiera']
        puts "steady stock/hand-off: HTTP #{q['steady_http']}x, compile #{q['steady_compile']}x, Hiera #{q['steady_hiera']}x; " \
             "CPU: compile #{q['steady_compile_cpu'] || '-'}x, Hiera #{q['steady_hiera_cpu'] || '-'}x"
      end
      puts 'steady state by round (median ms: compile, Hiera; CPU ms: compile, Hiera):'
      st['per_round'].each do |mode, pr|
        puts "  #{mode}: " + pr.map { |k, v|
          "#{k}: #{f1(v['compile_ms_median'])} #{f1(v['hiera_ms_median'])}; #{f1(v['cpu_ms_median'])} #{f1(v['hiera_cpu_ms_median'])}"
        }.join(', ')
      end
      pp_, hh = st['per_round'].values_at('puppet', 'handoff')
      if pp_ && hh
        puts 'steady state by round, stock/hand-off (compile x, Hiera x; CPU: compile x, Hiera x):'
        pp_.each do |k, a|
          next unless (b = hh[k])

          x = ->(f) { a[f] && b[f] && b[f].positive? ? format('%.2f', a[f] / b[f]) : '-' }
          puts "  #{k}: #{x.('compile_ms_median')} #{x.('hiera_ms_median')}; #{x.('cpu_ms_median')} #{x.('hiera_cpu_ms_median')}"
        end
      end
    end
    if (f = r['first_compile']['handoff']) && f['handoff']
      puts "handoff: first compile's counters #{f['handoff'].slice('answered', 'declined', 'errors')}"
    end
  end
end

exit(ServerBench.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
