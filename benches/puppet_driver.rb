#!/usr/bin/env ruby
# frozen_string_literal: true
#
# The Puppet 7 side of benches/compare: Puppet's own Hiera 5 engine,
# in-process, inside real compiles.
#
#   puppet_driver.rb --corpus DIR [--nodes N] [--rounds R] --results FILE --timings FILE
#
# Speaks the driver interface of BENCHMARKS.md (the same as
# benches/compare_rust.rs):
#
# * workload: DIR/workload.jsonl (one request object per line, the CLI's
#   --batch format: key, merge, default); nodes: the first N files of
#   DIR/nodes/*.json in byte order (certname = file name without .json);
# * Puppet is set up as the oracle recorder (shared/oracle/record) sets it up:
#   isolated settings in a temporary directory, environmentpath on the corpus,
#   hiera_config = DIR/hiera.yaml, strict = warning;
# * a warm-up compile on a tiny throw-away repo loads Puppet's lazily
#   required code first, so that the first compile measures cold *caches*;
# * first compile: a fresh environment object (so empty Hiera caches) and
#   node 0; the workload's lookups are timed as a whole; three times, each on
#   a new environment object, the median reported;
# * R rounds over the N nodes on that environment (its data caches warm, as in
#   a long-running puppetserver): for each node a Puppet::Node with its facts,
#   trusted information 'remote' with the certname, a Puppet::Parser::Compiler,
#   and, inside compiler.compile, every request through
#   Puppet::Pops::Lookup.lookup (what the lookup() function calls), each timed
#   with CLOCK_MONOTONIC. Rendering happens after the timed loop.
# * --results: round 0's responses, one JSON line per node and request:
#   {"value": V} | {"not_found": true} | {"error": {"kind": "puppet", "message": M}},
#   values rendered like the oracle (FORMAT.md), i.e. libhiera's wire format;
# * --timings: JSON lines meta, first_compile, compile (per node and round,
#   with every lookup's microseconds), run (RSS).

require_relative 'isolated_puppet'
require 'json'
require 'tmpdir'
require 'fileutils'
require 'base64'

module PuppetDriver
  NOT_FOUND = Object.new.freeze
  EMPTY = {}.freeze
  FIRST_COMPILES = 3

  module_function

  def parse_args(argv)
    opts = { nodes: 50, rounds: 3 }
    until argv.empty?
      arg = argv.shift
      case arg
      when '--corpus' then opts[:corpus] = argv.shift
      when '--nodes' then opts[:nodes] = Integer(argv.shift)
      when '--rounds' then opts[:rounds] = Integer(argv.shift)
      when '--results' then opts[:results] = argv.shift
      when '--timings' then opts[:timings] = argv.shift
      else abort "puppet_driver: unknown argument #{arg}"
      end
    end
    unless opts[:corpus] && opts[:results] && opts[:timings]
      abort 'usage: puppet_driver.rb --corpus DIR [--nodes N] [--rounds R] --results FILE --timings FILE'
    end
    opts
  end

  def now
    Process.clock_gettime(Process::CLOCK_MONOTONIC, :nanosecond)
  end

  def rss_bytes
    line = File.readlines('/proc/self/status').find { |l| l.start_with?('VmRSS:') }
    line ? line.split[1].to_i * 1024 : 0
  end

  # The oracle's rendering (shared/oracle/FORMAT.md, "Value rendering").
  def render(v)
    case v
    when nil, true, false, Integer then v
    when Float
      if v.nan? then tagged('Float', 'NaN')
      elsif v.infinite? then tagged('Float', v > 0 ? 'Infinity' : '-Infinity')
      else v
      end
    when String
      if !v.dup.force_encoding('UTF-8').valid_encoding?
        tagged('Binary', Base64.strict_encode64(v.b))
      else
        v.encoding == Encoding::UTF_8 ? v : v.dup.force_encoding('UTF-8')
      end
    when Symbol then tagged('Symbol', v.to_s)
    when Array then v.map { |e| render(e) }
    when Hash
      if v.keys.all? { |k| k.is_a?(String) }
        v.each_with_object({}) { |(k, e), h| h[k] = render(e) }
      else
        { '__type__' => 'Hash', 'entries' => v.map { |k, e| [render(k), render(e)] } }
      end
    else
      if defined?(Puppet::Pops::Types::PSensitiveType::Sensitive) && v.is_a?(Puppet::Pops::Types::PSensitiveType::Sensitive)
        tagged('Sensitive', render(v.unwrap))
      else
        tagged(v.class.name.to_s, v.to_s)
      end
    end
  end

  def tagged(type, value)
    { '__type__' => type, 'value' => value }
  end

  def response(outcome)
    kind, value = outcome
    case kind
    when :value then JSON.generate({ 'value' => render(value) })
    when :not_found then '{"not_found":true}'
    else JSON.generate({ 'error' => { 'kind' => 'puppet', 'message' => value.to_s } })
    end
  end

  def deep_dup(v)
    case v
    when Hash then v.each_with_object({}) { |(k, e), h| h[deep_dup(k)] = deep_dup(e) }
    when Array then v.map { |e| deep_dup(e) }
    when String then v.dup
    else v
    end
  end

  def boot(corpus)
    @tmp = IsolatedPuppet.boot('hiera-bench-puppet-', File.join(corpus, 'environments'))
    Puppet[:code] = 'undef'
    $bench_logs = (@logs = [])
    unless Puppet::Util::Log.desttypes.key?(:bench_capture)
      Puppet::Util::Log.newdesttype :bench_capture do
        def handle(msg)
          $bench_logs << "#{msg.level}: #{msg.message}" if $bench_logs && $bench_logs.size < 1000
        end
      end
    end
    Puppet::Util::Log.newdestination(:bench_capture)
    Puppet::Util::Log.level = :warning
  end

  # A compile on a tiny repo: loads the parts of Puppet that are required
  # lazily (compiler, lookup, interpolation, merge strategies).
  def warm_up
    dir = File.join(@tmp, 'warmup')
    envs = File.join(dir, 'environments')
    FileUtils.mkdir_p(File.join(envs, 'production', 'data'))
    FileUtils.mkdir_p(File.join(envs, 'production', 'modules', 'wmod', 'data'))
    File.write(File.join(dir, 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n")
    File.write(File.join(envs, 'production', 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: c\n    paths: [\"n/%{trusted.certname}.yaml\", c.yaml]\n")
    File.write(File.join(envs, 'production', 'data', 'c.yaml'),
               "lookup_options:\n  '^h.*$': {merge: deep}\nk: '%{facts.a} %{lookup(\"j\")}'\nj: x\nh: {a: [1], b: {c: 1}}\nl: \"%{alias('h')}\"\n")
    File.write(File.join(envs, 'production', 'modules', 'wmod', 'hiera.yaml'), "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n")
    File.write(File.join(envs, 'production', 'modules', 'wmod', 'data', 'c.yaml'), "wmod::x: 1\n")
    saved = Puppet[:hiera_config]
    Puppet[:hiera_config] = File.join(dir, 'hiera.yaml')
    loader = Puppet::Environments::Directories.new(envs, [])
    env = loader.get!('production')
    reqs = [{ 'key' => 'k' }, { 'key' => 'h', 'merge' => 'deep' }, { 'key' => 'h.b.c' }, { 'key' => 'l' },
            { 'key' => 'wmod::x' }, { 'key' => 'wmod::y' }, { 'key' => 'm', 'default' => 1 },
            { 'key' => 'h', 'merge' => { 'strategy' => 'deep', 'knockout_prefix' => '--' } },
            { 'key' => 'h', 'merge' => 'hash' }, { 'key' => 'j', 'merge' => 'unique' }]
    Puppet.override({ environments: loader }, 'bench warm-up') do
      compile(env, 'warm.example.com', { 'a' => 'b' }, reqs, [], [])
    end
    Puppet[:hiera_config] = saved
    @logs.clear
  end

  def lookup(scope, req)
    names = req['key']
    merge = req['merge']
    inv = Puppet::Pops::Lookup::Invocation.new(scope, EMPTY, EMPTY)
    value = if req.key?('default')
              Puppet::Pops::Lookup.lookup(names, nil, req['default'], true, merge, inv)
            else
              Puppet::Pops::Lookup.lookup(names, nil, nil, false, merge, inv) { |_| NOT_FOUND }
            end
    value.equal?(NOT_FOUND) ? [:not_found, nil] : [:value, value]
  rescue StandardError, SystemStackError => e
    [:error, e.message]
  end

  # One compile of node `cert`: every request looked up inside it.
  # Appends the outcomes to `outcomes` and each lookup's ns to `times`;
  # returns the nanoseconds of the whole loop.
  def compile(env, cert, facts, workload, outcomes, times)
    total = 0
    Puppet.override({ current_environment: env }, 'bench env') do
      node = Puppet::Node.new(cert, environment: env)
      node.fact_merge(Puppet::Node::Facts.new(cert, deep_dup(facts)))
      trusted = Puppet::Context::TrustedInformation.new('remote', cert, {}, {})
      compiler = Puppet.override({ trusted_information: trusted }, 'bench trusted') { Puppet::Parser::Compiler.new(node) }
      compiler.compile do |catalog|
        scope = compiler.topscope
        start = now
        workload.each do |req|
          t0 = now
          outcomes << lookup(scope, req)
          times << (now - t0)
        end
        total = now - start
        catalog
      end
    end
    total
  end

  def main(argv)
    opts = parse_args(argv)
    corpus = File.expand_path(opts[:corpus])
    workload = File.readlines(File.join(corpus, 'workload.jsonl'), chomp: true).reject { |l| l.strip.empty? }.map { |l| JSON.parse(l) }
    nodes = Dir[File.join(corpus, 'nodes', '*.json')].sort.first(opts[:nodes]).map do |f|
      [File.basename(f, '.json'), JSON.parse(File.read(f))]
    end
    timings = File.open(opts[:timings], 'w')
    results = File.open(opts[:results], 'w')

    t = now
    boot(corpus)
    warm_up
    boot_s = (now - t) / 1e9
    timings.puts JSON.generate({ 'type' => 'meta', 'engine' => "puppet #{Puppet.version} (Puppet::Pops::Lookup, in-process)",
                                 'ruby' => RUBY_DESCRIPTION, 'nodes' => nodes.size, 'requests' => workload.size,
                                 'rounds' => opts[:rounds], 'boot_seconds' => boot_s.round(3) })
    Puppet[:hiera_config] = File.join(corpus, 'hiera.yaml')
    loader = Puppet::Environments::Directories.new(File.join(corpus, 'environments'), [])
    rss_start = rss_bytes
    Puppet.override({ environments: loader }, 'bench') do
      # First compile: a fresh environment object (get! makes a new one each
      # time), so cold Hiera caches; FIRST_COMPILES times, the median kept.
      env = nil
      samples = Array.new(FIRST_COMPILES) do
        env = loader.get!('production')
        compile(env, nodes[0][0], nodes[0][1], workload, [], []) / 1e9
      end
      timings.puts JSON.generate({ 'type' => 'first_compile', 'node' => nodes[0][0], 'seconds' => samples.sort[samples.size / 2].round(6),
                                   'samples' => samples.map { |x| x.round(6) }, 'lookups' => workload.size })
      # The discarded environments are garbage now: collect it before the
      # timed rounds rather than in them.
      GC.start
      opts[:rounds].times do |round|
        nodes.each do |cert, facts|
          outcomes = []
          times = []
          total = compile(env, cert, facts, workload, outcomes, times)
          timings.puts JSON.generate({ 'type' => 'compile', 'round' => round, 'node' => cert, 'total_us' => (total / 1e3).round(3),
                                       'lookup_us' => times.map { |x| (x / 1e3).round(3) } })
          next unless round.zero?

          outcomes.each { |o| results.puts response(o) }
        end
      end
    end
    timings.puts JSON.generate({ 'type' => 'run', 'rss_start_bytes' => rss_start, 'rss_after_bytes' => rss_bytes,
                                 'log_messages' => @logs.size })
    unless @logs.empty?
      warn "puppet_driver: #{@logs.size} log message(s), first ones:"
      @logs.uniq.first(5).each { |l| warn "  #{l}" }
    end
    timings.close
    results.close
    0
  end
end

exit(PuppetDriver.main(ARGV.dup)) if $PROGRAM_NAME == __FILE__
