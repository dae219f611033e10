# frozen_string_literal: true

# The hand-off path of the differential fuzzer (difffuzz.py --path handoff):
# every case under the directories given is answered by Puppet 7.23's own
# `lookup()` inside a real catalog compile with the gem's hand-off switched
# on (Libhiera::Puppet.accelerate!), as ruby/test/test_puppet_handoff.rb
# runs recorded cases (ruby/test/support/puppet_runner.rb: one forked child
# per case, every query the first lookup of a fresh LookupAdapter).
#
#   LIBHIERA_PATH=.../libhiera.so ruby fuzz/differential/handoff_runner.rb DIR...
#
# A DIR is a case directory (holding case.yaml) or a directory of them.
# Prints one JSON line per case: {"case": DIR, "results": [R...], "stats":
# {...}} where R is {"value": V} (V in the wire form, the recorder's JSON),
# {"not_found": true} or {"error": MESSAGE} (the case directory rewritten
# out of it, as the recorder does), and stats are that case's
# Libhiera::Puppet.stats (handed_off, errors, declined_<reason>). A case
# whose child fails or takes over 120 s gets {"case", "failure": TEXT}.

root = File.expand_path('../..', __dir__)
$LOAD_PATH.unshift(File.join(root, 'ruby', 'lib'))
$LOAD_PATH.unshift(File.join(root, 'ruby', 'test', 'support'))
require 'json'
require 'yaml'
require 'fileutils'
require 'tmpdir'
require 'timeout'
require 'libhiera'
require 'puppet_runner'
require 'libhiera/puppet'

CASE_TIMEOUT = 120

def case_dirs(args)
  args.flat_map do |a|
    if File.exist?(File.join(a, 'case.yaml'))
      [a]
    else
      Dir.glob(File.join(a, '*', 'case.yaml')).sort.map { |f| File.dirname(f) }
    end
  end
end

# One case in a forked child: [results, stats], or raises.
def run_forked(dir, kase)
  rd, wr = IO.pipe
  pid = fork do
    rd.close
    begin
      Libhiera::Puppet.accelerate!
      Libhiera::Puppet.stats.clear
      results = PuppetRunner.run_case(dir, kase).map do |o|
        o.key?('value') ? { 'value' => JSON.parse(JSON.generate(Libhiera::Wire.prepare(o['value'])), quirks_mode: true) } : o
      end
      Marshal.dump([:ok, [results, Libhiera::Puppet.stats.to_h { |k, v| [k.to_s, v] }]], wr)
    rescue Exception => e # rubocop:disable Lint/RescueException
      Marshal.dump([:error, "#{e.class}: #{e.message}"], wr)
    end
    wr.close
    exit!(0)
  end
  wr.close
  data = nil
  begin
    Timeout.timeout(CASE_TIMEOUT) { data = rd.read }
  rescue Timeout::Error
    Process.kill('KILL', pid)
    Process.wait(pid)
    raise "timeout after #{CASE_TIMEOUT}s"
  end
  rd.close
  Process.wait(pid)
  status, value = Marshal.load(data)
  raise value if status == :error

  value
end

PuppetRunner.boot
$stdout.sync = true
case_dirs(ARGV).each do |dir|
  kase = YAML.safe_load(File.read(File.join(dir, 'case.yaml')), aliases: true)
  begin
    results, stats = run_forked(dir, kase)
    line = { 'case' => dir, 'results' => results, 'stats' => stats }
  rescue StandardError => e
    line = { 'case' => dir, 'failure' => e.message }
  end
  # Values in the wire form hold NaN and Infinity as the recorder writes them.
  puts JSON.generate(line, allow_nan: true)
end
