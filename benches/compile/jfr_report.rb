#!/usr/bin/env ruby
# frozen_string_literal: true
#
# Where JRuby's time in Hiera goes, from a JFR recording of a JRuby compile
# run (benches/compile/jruby-run with
# JRUBY_FLAGS="-J-XX:StartFlightRecording=filename=REC.jfr,settings=profile"):
#
#   ruby benches/compile/jfr_report.rb REC.jfr [TOP] [--all] [--under METHOD ...]
#
# Counts the execution samples (jdk.ExecutionSample, Java code, JIT-compiled
# Ruby included) and native samples (jdk.NativeMethodSample: a thread in
# native code, e.g. in libhiera through FFI) of the main thread whose stack
# holds HieraTimer.enter (inside the outermost Hiera entry; --all: every
# sample), and prints the frames with the most self samples and the Ruby
# methods (JIT-compiled frames) with the most inclusive samples. Ruby frames
# are only named once JRuby's JIT has compiled them (-Xjit.threshold);
# interpreted ones show as the interpreter. Inclusive counts are of the
# frames above (called from) the outermost HieraTimer.enter. --under METHOD
# (a substring of a printed Ruby frame name, e.g. 'puppet method$libhiera_session'):
# the samples inside that frame by the next Ruby frame it called (or 'self':
# its own code and the Java code it runs).
#
# --lines METHOD: the samples inside that frame by its source line (the
# line its call or own work was on when sampled).
#
# More samples than JFR's profile settings take (10 ms): a copy of
# $JAVA_HOME/lib/jfr/profile.jfc with jdk.ExecutionSample's period 1 ms
# and jdk.NativeMethodSample's 1 ms too (its default is 20 ms: changing only
# the first under-counts native code, libhiera and the FFI calls, 20x),
# given as settings=FILE (or COMPILE_BENCH_JFC with driver.rb --profile
# FILE.jfr, which records the timed rounds only).

require 'open3'

args = ARGV.dup
unders = []
while (i = args.index('--under'))
  unders << args.delete_at(i + 1)
  args.delete_at(i)
end
line_of = []
while (i = args.index('--lines'))
  line_of << args.delete_at(i + 1)
  args.delete_at(i)
end
all = !args.delete('--all').nil?
path = args.find { |a| !a.match?(/\A\d+\z/) } or abort 'usage: jfr_report.rb REC.jfr [TOP] [--all] [--under METHOD]'
top = Integer(args.find { |a| a.match?(/\A\d+\z/) } || 30)

text, status = Open3.capture2('jfr', 'print', '--events', 'jdk.ExecutionSample,jdk.NativeMethodSample',
                              '--stack-depth', '400', path)
abort 'jfr print failed' unless status.success?

# A frame line: "    org.jruby.RubyHash.op_aref(ThreadContext, IRubyObject) line: 12"
def frame_name(line)
  name = line.strip.sub(/\s+line:.*\z/, '').sub(/\(.*\)\z/, '')
  # JIT-compiled Ruby: <class>.RUBY$method$NAME$N / RUBY$block$NAME$N
  if (m = name.match(/\A(.*)\.(RUBY\$(?:method|block)\$[^$]+)/))
    cls = m[1].split('.').last
    "ruby #{cls} #{m[2].sub('RUBY$', '')}"
  else
    name
  end
end

samples = { exec: 0, native: 0 }
inside = { exec: 0, native: 0 }
self_counts = Hash.new(0)
incl = Hash.new(0)
under = Hash.new { |h, k| h[k] = Hash.new(0) }
lines = Hash.new { |h, k| h[k] = Hash.new(0) }
text.split(/^jdk\.(?=ExecutionSample|NativeMethodSample)/).each do |event|
  kind = event.start_with?('ExecutionSample') ? :exec : (event.start_with?('NativeMethodSample') ? :native : nil)
  next unless kind
  next unless event.include?('"main"')

  samples[kind] += 1
  raw = event.lines.drop_while { |l| !l.include?('stackTrace = [') }.drop(1)
             .take_while { |l| !l.strip.start_with?(']') }.reject { |l| l.strip.start_with?('...') }
  frames = raw.map { |l| frame_name(l) }
  next if frames.empty?
  outer = frames.rindex { |f| f == 'ruby hiera_timer method$enter' }
  next unless all || outer

  frames = frames[0...outer] if outer && !all
  inside[kind] += 1
  self_counts["#{kind == :native ? '[native] ' : ''}#{frames.first}"] += 1
  # a JIT-compiled method can show as two frames (its body, its arity wrapper)
  ruby = frames.select { |f| f.start_with?('ruby ') }.chunk_while { |a, b| a == b }.map(&:first)
  ruby.uniq.each { |f| incl[f] += 1 }
  line_of.each do |u|
    at = frames.index { |f| f.start_with?('ruby ') && f.include?(u) }
    next unless at

    lines[u][raw[at][/line: (\d+)/, 1].to_i] += 1
  end
  unders.each do |u|
    at = ruby.rindex { |f| f.include?(u) }
    next unless at

    callee = at.zero? ? 'self' : ruby[at - 1]
    under[u][callee] += 1
  end
end

n = inside.values.sum
puts "samples (main thread): #{samples}; #{all ? 'all' : 'inside HieraTimer.enter'}: #{inside}"
puts "\nself (top frame), of #{n}:"
self_counts.sort_by { |_, c| -c }.first(top).each { |f, c| puts format('%6d %5.1f%%  %s', c, 100.0 * c / n, f) }
puts "\nRuby methods, inclusive, of #{n}:"
incl.sort_by { |_, c| -c }.first(top).each { |f, c| puts format('%6d %5.1f%%  %s', c, 100.0 * c / n, f) }
unders.each do |u|
  total = under[u].values.sum
  puts "\nunder #{u} (#{total} samples), by the Ruby frame it called:"
  under[u].sort_by { |_, c| -c }.first(top).each { |f, c| puts format('%6d %5.1f%%  %s', c, 100.0 * c / [total, 1].max, f) }
end
line_of.each do |u|
  total = lines[u].values.sum
  puts "\n#{u} (#{total} samples) by source line:"
  lines[u].sort_by { |_, c| -c }.first(top).each { |l, c| puts format('%6d %5.1f%%  line %d', c, 100.0 * c / [total, 1].max, l) }
end
