# frozen_string_literal: true

# Helpers of scripts/test-puppetserver (plain Ruby, no gems):
#   helper.rb port                       a free TCP port on 127.0.0.1
#   helper.rb wait URL PID               waits until Puppet Server at URL says it
#                                        is running (fails when PID exits first,
#                                        or after 15 minutes)
#   helper.rb compile URL OUT            compiles node1.example.com's catalog
#                                        (POST /puppet/v4/catalog), writes it to OUT
#   helper.rb compare A B                the catalogs' resources and edges, without
#                                        the volatile fields, are the same
#   helper.rb counters LOG COMPILES LIB  the hand-off's log lines in puppetserver.log:
#                                        on (with the library LIB) from the first
#                                        compile of the JRuby instance, every
#                                        lookup answered
#   helper.rb readme README OUT CONFDIR CODEDIR TARBALL
#                                        the README's Puppet Server instructions as
#                                        a shell script for these directories
require 'json'
require 'net/http'
require 'socket'

NODE = 'node1.example.com'

def fail!(msg)
  warn "FAIL: #{msg}"
  exit 1
end

def request_body
  facts = {
    'os' => { 'family' => 'Debian', 'name' => 'Debian', 'release' => { 'major' => '12', 'full' => '12.11' } },
    'networking' => { 'fqdn' => NODE, 'hostname' => 'node1', 'domain' => 'example.com' },
    'kernel' => 'Linux',
  }
  trusted = { 'authenticated' => 'remote', 'certname' => NODE, 'hostname' => 'node1', 'domain' => 'example.com',
              'extensions' => {} }
  { 'certname' => NODE, 'environment' => 'production',
    'persistence' => { 'facts' => false, 'catalog' => false },
    'facts' => { 'values' => facts }, 'trusted_facts' => { 'values' => trusted },
    'transaction_uuid' => 'a7d0c3b8-0000-4000-8000-000000000001' }
end

# What must be the same: every resource (type, title, parameters, tags,
# exported/virtual, file and line) and every edge, in order; not the
# catalog's identity (version, code_id, catalog_uuid, ...).
def normalized(catalog)
  resources = catalog.fetch('resources').map do |r|
    r.slice('type', 'title', 'parameters', 'tags', 'exported', 'virtual', 'file', 'line', 'sensitive_parameters')
  end
  { 'name' => catalog['name'], 'environment' => catalog['environment'], 'classes' => catalog['classes'],
    'resources' => resources, 'edges' => catalog.fetch('edges') }
end

case ARGV.shift
when 'port'
  s = TCPServer.new('127.0.0.1', 0)
  puts s.addr[1]
  s.close
when 'wait'
  url, pid = ARGV
  # A guard against a server that hangs, not a measure: it usually takes 1-3 minutes.
  deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + 900
  loop do
    if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline
      fail!("Puppet Server (pid #{pid}) was not running after 15 minutes")
    end
    begin
      Process.kill(0, Integer(pid))
    rescue Errno::ESRCH
      fail!("Puppet Server (pid #{pid}) exited before it was running")
    end
    begin
      res = Net::HTTP.get_response(URI("#{url}/status/v1/simple"))
      break if res.code == '200' && res.body.strip == 'running'
    rescue SystemCallError, IOError, Net::ReadTimeout
      nil
    end
    sleep 1
  end
when 'compile'
  url, out = ARGV
  uri = URI("#{url}/puppet/v4/catalog")
  res = Net::HTTP.start(uri.host, uri.port, read_timeout: 600) do |http|
    http.post(uri.path, JSON.generate(request_body), 'Content-Type' => 'application/json')
  end
  fail!("POST #{uri}: HTTP #{res.code}: #{res.body[0, 2000]}") unless res.code == '200'
  catalog = JSON.parse(res.body).fetch('catalog')
  File.write(out, JSON.pretty_generate(catalog))
  puts "#{catalog['resources'].size} resources"
when 'compare'
  a, b = ARGV.map { |f| normalized(JSON.parse(File.read(f))) }
  if a != b
    ra = a['resources'].map { |r| JSON.generate(r) }
    rb = b['resources'].map { |r| JSON.generate(r) }
    (ra - rb).first(5).each { |r| warn "  only in #{ARGV[0]}: #{r}" }
    (rb - ra).first(5).each { |r| warn "  only in #{ARGV[1]}: #{r}" }
    fail!("the catalogs #{ARGV[0]} and #{ARGV[1]} differ")
  end
  puts "the same: #{a['resources'].size} resources, #{a['edges'].size} edges"
when 'counters'
  log, compiles, library = ARGV
  lines = File.readlines(log).grep(/libhiera hand-off/)
  on = lines.each_index.select { |i| lines[i].include?('libhiera hand-off: on (') }
  fail!("no 'libhiera hand-off: on' line in #{log}:\n#{File.read(log)[-4000..]}") if on.empty?
  fail!("#{on.size} 'on' lines for one JRuby instance") unless on.size == 1
  puts lines[on.first].strip
  unless lines[on.first].include?(" from #{library}, ")
    fail!("the hand-off did not load the module's library #{library}: #{lines[on.first]}")
  end
  per_compile = lines.each_index.select { |i| lines[i].include?('libhiera hand-off: catalog for ') }
  unless per_compile.size == Integer(compiles)
    fail!("#{per_compile.size} compile lines for #{compiles} compiles:\n#{lines.join}")
  end
  fail!("a compile line before the hand-off was on:\n#{lines.join}") unless per_compile.first > on.first
  re = /catalog for (\S+) in environment (\S+): (\d+) lookups answered, (\d+) declined(?: \(([^)]*)\))?, (\d+) errors/
  per_compile.each_with_index do |i, n|
    m = re.match(lines[i]) or fail!("unexpected compile line: #{lines[i]}")
    answered, declined, reasons, errors = Integer(m[3]), Integer(m[4]), m[5], Integer(m[6])
    puts "compile #{n + 1}#{n.zero? ? ' (the first of the JRuby instance)' : ''}: #{answered} lookups answered, " \
         "#{declined} declined#{reasons ? " (#{reasons})" : ''}, #{errors} errors"
    fail!("compile #{n + 1}: the hand-off answered no lookup") unless answered.positive?
    fail!("compile #{n + 1}: lookups went to Puppet: #{reasons}") unless declined.zero?
    fail!("compile #{n + 1}: lookup errors") unless errors.zero?
  end
  problems = lines.grep(/go to Puppet|hand-off: off/)
  fail!("the hand-off says:\n#{problems.join}") unless problems.empty?
when 'readme'
  readme, out, confdir, codedir, tarball = ARGV
  text = File.read(readme)
  block = text[/<!-- puppetserver-setup -->\n```sh\n(.*?)```/m, 1] or fail!("#{readme}: no puppetserver-setup block")
  # The README's paths are Debian's: /etc/puppet (confdir), /etc/puppet/code
  # (codedir); the package is the one scripts/package-module built.
  script = block.dup
  version = JSON.parse(File.read(File.join(File.dirname(readme), 'metadata.json'))).fetch('version')
  { "target/module/libhiera-module-#{version}.tar.gz" => tarball, '/etc/puppet/code' => codedir,
    '/etc/puppet' => confdir }.each do |from, to|
    fail!("#{readme}: the puppetserver-setup block does not name #{from}") unless script.include?(from)
    script = script.gsub(from, to)
  end
  # Restarting is the test's (it starts the server it stopped).
  script = script.lines.reject { |l| l.start_with?('systemctl ') }.join
  File.write(out, "set -euo pipefail\n#{script}")
else
  fail!("usage: helper.rb port|wait|compile|compare|counters|readme ...")
end
