#!/usr/bin/env ruby
# frozen_string_literal: true
#
# Where the time in Hiera goes, from a stackprof dump of driver.rb --profile
# (wall mode, raw samples):
#
#   ruby benches/compile/driver.rb --repo benches/realrepo --modes handoff --rounds 3 --profile /tmp/handoff.dump
#   ruby benches/compile/profile_report.rb /tmp/handoff.dump [TOP]
#
# Only the samples taken inside Hiera (a stack holding HieraTimer.enter, i.e.
# under the outermost entry point the driver times) are counted: the frames
# with the most self time, and the frames under the outermost entry with the
# most inclusive time (each counted once per sample). Wall-clock samples: a
# Libhiera::Native frame's time is the foreign call's, Rust included.

top = Integer(ARGV[1] || 25)
data = Marshal.load(File.binread(ARGV.fetch(0) { abort 'usage: profile_report.rb DUMP [TOP]' }))
raw = data[:raw] or abort 'the dump has no raw samples (StackProf raw: true)'
frames = data[:frames]
name = ->(id) { frames[id] ? frames[id][:name] : id.to_s }
enter_ids = frames.select { |_, f| f[:name].to_s.include?('HieraTimer.enter') }.keys
timer_ids = frames.select { |_, f| f[:name].to_s.start_with?('HieraTimer') }.keys

total = 0
inside = 0
self_w = Hash.new(0)
incl_w = Hash.new(0)
i = 0
while (len = raw[i])
  stack = raw[i + 1, len] # outermost first
  weight = raw[i + 1 + len]
  i += len + 2
  total += weight
  outer = stack.index { |id| enter_ids.include?(id) }
  next if outer.nil?

  inside += weight
  self_w[name.call(stack.last)] += weight
  # inclusive: the frames under the outermost entry only
  stack[(outer + 1)..].reject { |id| timer_ids.include?(id) }.map { |id| name.call(id) }.uniq.each { |n| incl_w[n] += weight }
end

pct = ->(w) { format('%5.1f%%', 100.0 * w / [inside, 1].max) }
puts "samples: #{total} (#{data[:mode]} mode, interval #{data[:interval]} us), inside Hiera: #{inside} " \
     "(#{format('%.1f', 100.0 * inside / [total, 1].max)}% of the profiled time)"
puts "\ntop self time inside Hiera:"
self_w.sort_by { |_, w| -w }.first(top).each { |n, w| puts "  #{pct.call(w)}  #{n}" }
puts "\ntop inclusive time inside Hiera:"
incl_w.sort_by { |_, w| -w }.first(top).each { |n, w| puts "  #{pct.call(w)}  #{n}" }
