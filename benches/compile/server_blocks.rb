# frozen_string_literal: true
#
# Benchmark only: a server-run JSON's steady rounds in blocks of ten (medians of CPU and
# wall ms per compile and in Hiera, both servers, ratios), the stock/hand-off Hiera CPU ratio
# of every steady round, and each server's CPU per compile by whether it went first.
#   ruby benches/compile/server_blocks.rb RESULT.json
require 'json'
res = JSON.parse(File.read(ARGV[0]))
med = ->(xs) { xs = xs.compact.sort; xs.empty? ? nil : (xs.size.odd? ? xs[xs.size / 2] : (xs[xs.size / 2 - 1] + xs[xs.size / 2]) / 2.0) }
cs = res['compiles']
st = cs.map { |c| c['round'] }.grep(/\As\d+\z/).uniq
st.each_slice(10) do |blk|
  row = %w[puppet handoff].map do |m|
    mine = cs.select { |c| c['mode'] == m && blk.include?(c['round']) }
    [med.(mine.map { |c| c['cpu_ms'] }), med.(mine.map { |c| c['hiera_cpu_ms'] }), med.(mine.map { |c| c['total_ms'] }), med.(mine.map { |c| c['hiera_ms'] })]
  end
  p_, h = row
  printf("%s-%s: stock CPU %.0f Hiera %.0f | hand-off CPU %.0f Hiera %.0f | CPU x compile %.2f Hiera %.2f | wall x compile %.2f Hiera %.2f\n",
         blk.first, blk.last, p_[0], p_[1], h[0], h[1], p_[0] / h[0], p_[1] / h[1], p_[2] / h[2], p_[3] / h[3])
end
# ratio per round (medians)
rr = st.map do |r|
  a = %w[puppet handoff].map { |m| med.(cs.select { |c| c['mode'] == m && c['round'] == r }.map { |c| c['hiera_cpu_ms'] }) }
  a[0] / a[1]
end
puts "Hiera CPU ratio per steady round: #{rr.map { |x| x.round(1) }.join(' ')}"
# who went first: with --rounds 3, s(k) has puppet first when (3+k) is even
%w[puppet handoff].each do |m|
  first, second = st.partition { |r| ((3 + r[1..].to_i).even?) == (m == 'puppet') }
  f = med.(cs.select { |c| c['mode'] == m && first.include?(c['round']) }.map { |c| c['cpu_ms'] })
  s = med.(cs.select { |c| c['mode'] == m && second.include?(c['round']) }.map { |c| c['cpu_ms'] })
  printf("%s: CPU ms per compile, median, rounds it went first %.0f, second %.0f\n", m, f, s)
end
