# frozen_string_literal: true

# The measurements of the gem README's "What is accelerated" table: CPU time
# per call, the gem's code against Ruby's (hiera 3.10, Puppet 7.23).
#
#   LIBHIERA_PATH=target/release/libhiera.so ruby ruby/bench/run.rb
#
# Run it on a quiet machine; it is not part of the tests.
$LOAD_PATH.unshift(File.expand_path('../lib', __dir__), File.expand_path('../test/support', __dir__))
require 'json'
require 'yaml'
require 'tmpdir'
require 'fileutils'
require 'hiera'
require 'libhiera/hiera3'

ROOT = File.expand_path('../..', __dir__)

def cpu_us(times)
  start = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  times.times { yield }
  (Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID) - start) / times * 1e6
end

def row(name, ruby, ours)
  printf "%-46s %10s %10s\n", name, ruby ? format('%.1f us', ruby) : '-', format('%.1f us', ours)
end

Hiera.logger = 'noop'
printf "%-46s %10s %10s\n", '', 'Ruby', 'libhiera'

# Hiera 3 helpers, with and without Libhiera::Hiera3.accelerate!
scope = (1..200).to_h { |i| ["fact#{i}", "value#{i}"] }.merge('role' => 'web', 'host' => 'web01', 'os' => { 'family' => 'Debian' })
big = (1..100).to_h { |i| ["key#{i}", { 'a' => "x-%{role}-#{i}", 'b' => [1, 2, '%{os.family}'], 'c' => "plain #{i}" }] }
left = (1..100).to_h { |i| ["k#{i}", { 'a' => [i], 'h' => { 'x' => i, 'y' => [i, i + 1] } }] }
right = (1..100).to_h { |i| ["k#{i}", { 'a' => [i + 1], 'h' => { 'z' => i } }] }
Hiera::Config.instance_variable_set(:@config, { backends: ['yaml'] })
copy = ->(v) { Marshal.load(Marshal.dump(v)) }
copy_cost = cpu_us(300) { copy.call(left) }
[['Hiera 3 parse_string, a short string', 1000, -> { Hiera::Backend.parse_string('%{role}-%{host}', scope) }],
 ['Hiera 3 parse_answer, 100 nested entries', 100, -> { Hiera::Backend.parse_answer(big, scope) }],
 ['Hiera 3 merge_answer, deeper, 100 entries', 100,
  -> { Hiera::Backend.merge_answer(copy.call(left), right, { behavior: :deeper }) }]].each do |name, n, f|
  Libhiera::Hiera3.decelerate!
  f.call
  ruby = cpu_us(n, &f)
  Libhiera::Hiera3.accelerate!
  f.call
  ours = cpu_us(n, &f)
  ruby, ours = [ruby - copy_cost, ours - copy_cost] if name.include?('merge')
  row(name, ruby, ours)
end
Libhiera::Hiera3.decelerate!

# A Hiera 3 lookup: the stock yaml backend against the libhiera backend.
Dir.chdir(File.join(ROOT, 'tests/conformance/hiera3/array_resolution')) do
  sc = { 'clientcert' => 'web01.example.com', 'role' => 'web', 'osfamily' => 'Debian' }
  Hiera::Backend.clear!
  stock = Hiera.new(config: 'hiera.yaml')
  Hiera.logger = 'noop'
  ruby = cpu_us(2000) { stock.lookup('classes', nil, sc, nil, :array) }
  require 'hiera/backend/libhiera_backend'
  config = Hiera::Config.instance_variable_get(:@config).merge(backends: ['libhiera'], libhiera: { backends: ['yaml'] })
  Hiera::Backend.clear!
  ours = Hiera.new(config: config)
  Hiera.logger = 'noop'
  row('Hiera 3 lookup, 3-level :array (backend)', ruby, cpu_us(2000) { ours.lookup('classes', nil, sc, nil, :array) })
  h3 = Libhiera::Hiera3.new(config: 'hiera.yaml')
  row('Hiera 3 lookup, the same, Libhiera::Hiera3', nil, cpu_us(2000) { h3.lookup('classes', nil, sc, nil, :array) })
end

# Hiera 5 from Ruby.
h = Libhiera::Hiera.new(hiera_config: File.join(ROOT, 'examples/hiera.yaml'), environmentpath: File.join(ROOT, 'examples/environments'))
sc = Libhiera::Wire.decode(JSON.parse(File.read(File.join(ROOT, 'examples/expected.json')))['scope'])
session = h.session(sc)
row('Libhiera::Hiera session lookup (warm)', nil, cpu_us(20_000) { session.lookup('profile::base::users') })

# Puppet: lookup() in a compile, with and without the hand-off.
require 'puppet_runner'
require 'libhiera/puppet'
PuppetRunner.boot
kase = YAML.safe_load(File.read(File.join(ROOT, 'examples/case.yaml')))
keys = kase['queries'].map { |q| q['key'] } - ['no::such::key']
results = [false, true].map do |on|
  on ? Libhiera::Puppet.accelerate! : Libhiera::Puppet.decelerate!
  out = nil
  PuppetRunner.compile(File.join(ROOT, 'examples'), kase) do |compiler, s|
    keys.each { |k| s.call_function('lookup', [k]) }
    per = cpu_us(200) { keys.each { |k| s.call_function('lookup', [k]) } } / keys.size
    deep = cpu_us(200) { s.call_function('lookup', ['profile::base::users', { 'merge' => 'deep' }]) }
    Puppet::Pops::Lookup::LookupAdapter.clear(compiler)
    first = cpu_us(1) { keys.each { |k| s.call_function('lookup', [k]) } }
    out = [per, deep, first]
  end
  out
end
row('Puppet lookup() in a warm compile', results[0][0], results[1][0])
row("Puppet lookup(..., merge => deep)", results[0][1], results[1][1])
row("Puppet: the first #{keys.size} lookups of a compile", results[0][2], results[1][2])
