#!/usr/bin/env ruby
# frozen_string_literal: true
#
# Benchmark only: a server-run's rounds beside its JVMs' logs, round by round.
#   ruby benches/compile/server_jvm_report.rb RESULT.json LOGDIR
# RESULT.json: server_bench.rb's JSON (each compile's UTC end time 'at', its
# round, the timer's CPU ms); LOGDIR: the logs of a server-run made with
#   --jvm "-Xms1g -Xmx1g -Xlog:gc*:file=LOGDIR/gc-%p.log:utctime,uptime,tags
#          -Xlog:jit+compilation=debug:file=LOGDIR/jit-%p.log:utctime"
# and benches/compile/server-sample's LOGDIR/sample.txt (which names each
# server's PID). Per round (first, warm*, 0.., s0..), for each server: the
# medians of CPU ms per compile and in Hiera (compiling thread), and over the
# round's wall window (its first compile's start to its last compile's end,
# both servers): the JIT's compilations (all tiers; C2), methods made not
# entrant (deoptimized), GC pauses (count, ms) and the heap after the last
# collection, the code cache's use (server-sample's nearest sample, KB).
require 'json'
require 'time'

json, logdir, warm, early = ARGV
abort 'usage: server_jvm_report.rb RESULT.json|WORKDIR/REPO LOGDIR [WARM EARLY]' unless json && logdir
day = Time.now.utc.strftime('%Y-%m-%d')
res =
  if File.directory?("#{json}-puppet")
    # A run stopped before its JSON: the servers' records (in order) and their
    # access logs' POST lines (start second and duration), rounds by position
    # (1 first compile, WARM (3) and EARLY (3) rounds of 4 nodes, then s0, ...).
    warm = Integer(warm || 3)
    early = Integer(early || 3)
    compiles = %w[puppet handoff].flat_map do |mode|
      log = "#{json}-#{mode}/log"
      recs = File.readlines("#{log}/compile-bench-records.jsonl").map { |l| JSON.parse(l) }
      posts = File.readlines("#{log}/puppetserver-access.log").grep(%r{POST /puppet/v4/catalog})
      recs.each_with_index.map do |r, i|
        m = posts[i].match(/\[(\d+)\/(\w+)\/(\d+):([\d:]+) [^\]]*\].* (\d+)\s*\z/)
        t0 = Time.parse("#{m[1]} #{m[2]} #{m[3]} #{m[4]} UTC")
        n = i - 1
        round = if i.zero? then 'first'
                elsif n < 4 * warm then "warm#{n / 4}"
                elsif n < 4 * (warm + early) then (n - 4 * warm) / 4
                else "s#{(n - 4 * (warm + early)) / 4}"
                end
        r.merge('mode' => mode, 'round' => round, 'http_ms' => m[5].to_f,
                'at' => (t0 + m[5].to_f / 1000).utc.strftime('%H:%M:%S.%L'))
      end
    end
    { 'compiles' => compiles }
  else
    JSON.parse(File.read(json))
  end
t = ->(hms) { Time.parse("#{day}T#{hms}Z").to_f }
pids = {}
samples = Hash.new { |h, k| h[k] = [] }
File.foreach(File.join(logdir, 'sample.txt')) do |l|
  next if l.start_with?('#')

  head, gc, cc, _q, proc_ = l.split('|').map(&:strip)
  tm, mode, pid = head.split
  pids[mode] = pid
  g = gc.split.map(&:to_f)
  c = cc.split(',').map(&:to_i)
  pr = proc_.split
  samples[mode] << { t: t.(tm), old_kb: g[7], ygc: g[12], cc_kb: c.each_slice(2).sum { |u, _| u }, threads: pr[0].to_i,
                     ticks: pr[2].to_i + pr[3].to_i }
end
# The host's CPU (a loop beside the run: "HH:MM:SS load1 cpu user nice system
# idle iowait irq softirq steal ..." every 5 s), if logged: busy cores in a
# window, and the others' (the host's less both JVMs').
host = []
hf = File.join(logdir, 'host-cpu.txt')
if File.exist?(hf)
  File.foreach(hf) do |l|
    f = l.split
    v = f[3..].map(&:to_i)
    host << { t: t.(f[0]), load: f[1].to_f, busy: v.sum - v[3] - v[4], total: v.sum }
  end
end
around = lambda do |list, t0, t1|
  a = list.select { |x| x[:t] <= t0 }.last
  b = list.find { |x| x[:t] >= t1 }
  a && b && b[:t] > a[:t] ? [a, b] : nil
end
iso = ->(s) { Time.parse(s[1..s.index(']') - 1]).to_f }
jit = {}
gcs = {}
pids.each do |mode, pid|
  jit[mode] = File.foreach(File.join(logdir, "jit-#{pid}.log")).map do |l|
    f = l.split
    lvl = f[2] =~ /\A[0-4]\z/ ? f[2].to_i : (f[3] =~ /\A[0-4]\z/ ? f[3].to_i : nil)
    [iso.(l), lvl, l.include?('made not entrant')]
  end
  gcs[mode] = File.foreach(File.join(logdir, "gc-#{pid}.log")).grep(/\bPause .*\d+M->\d+M\(\d+M\) [\d.]+ms/).map do |l|
    m = l.match(/(\d+)M->(\d+)M\((\d+)M\) ([\d.]+)ms/)
    [iso.(l), m[2].to_i, m[4].to_f]
  end
end
med = ->(xs) { xs = xs.compact.sort; xs.empty? ? nil : (xs.size.odd? ? xs[xs.size / 2] : (xs[xs.size / 2 - 1] + xs[xs.size / 2]) / 2.0) }
rounds = res['compiles'].map { |c| c['round'] }.uniq
puts format('%-6s %-8s %8s %8s %7s | %6s %5s %6s | %4s %7s %6s | %7s %4s | %s', 'round', 'server', 'CPU ms', 'Hiera', 'x Hiera',
            'JIT', 'C2', 'deopt', 'GCs', 'GC ms', 'heapMB', 'cacheKB', 'thr', 'load1, cores busy: host, others')
rounds.each do |r|
  cs = res['compiles'].select { |c| c['round'] == r }
  t0 = cs.map { |c| t.(c['at']) - c['http_ms'] / 1000.0 }.min
  t1 = cs.map { |c| t.(c['at']) }.max
  per = {}
  hostcol = ''
  if (hw = around.(host, t0, t1))
    a, b = hw
    cores = 2.0 * (b[:busy] - a[:busy]) / (b[:total] - a[:total])
    jvm = %w[puppet handoff].sum do |m|
      (sw = around.(samples[m], a[:t], b[:t])) ? (sw[1][:ticks] - sw[0][:ticks]) / 100.0 / (sw[1][:t] - sw[0][:t]) : 0
    end
    hostcol = format('%.1f, %.2f, %.2f', host.select { |x| x[:t] >= t0 && x[:t] <= t1 }.map { |x| x[:load] }.then { |l| l.empty? ? a[:load] : l.sum / l.size },
                     cores, cores - jvm)
  end
  %w[puppet handoff].each do |mode|
    mine = cs.select { |c| c['mode'] == mode }
    j = jit[mode].select { |tm, _, _| tm >= t0 && tm <= t1 }
    g = gcs[mode].select { |tm, _, _| tm >= t0 && tm <= t1 }
    heap = gcs[mode].select { |tm, _, _| tm <= t1 }.last
    s = samples[mode].min_by { |x| (x[:t] - t1).abs }
    per[mode] = med.(mine.map { |c| c['hiera_cpu_ms'] })
    x = mode == 'puppet' ? '' : (per['puppet'] && per[mode] ? format('%.2f', per['puppet'] / per[mode]) : '-')
    puts format('%-6s %-8s %8.1f %8.1f %7s | %6d %5d %6d | %4d %7.1f %6s | %7s %4s | %s', r, mode, med.(mine.map { |c| c['cpu_ms'] }) || 0,
                per[mode] || 0, x, j.count { |_, l, n| l && !n }, j.count { |_, l, n| l == 4 && !n }, j.count { |_, _, n| n },
                g.size, g.sum { |_, _, ms| ms }, heap ? heap[1] : '-', s ? s[:cc_kb] : '-', s ? s[:threads] : '-',
                mode == 'puppet' ? hostcol : '')
  end
end
