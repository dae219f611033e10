# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'
require 'rbconfig'

# A stock Debian Puppet: `puppet apply` with Debian's own settings (its
# basemodulepath, /etc/puppet/code/modules:/usr/share/puppet/modules, where
# Debian's puppet-module-puppetlabs-sshkeys-core puts a module with Hiera
# data), loading the hand-off the way the README says (RUBYOPT and
# LIBHIERA_HANDOFF=1). Only the code directory is a scratch one, so that the
# node's environment is this test's. The catalog must be Puppet's, and every
# lookup must have been answered by libhiera (its counters, LIBHIERA_STATS=1).
class TestPuppetStock < Minitest::Test
  include TestSupport

  SSHKEYS = '/usr/share/puppet/modules/sshkeys_core'

  FILES = {
    'environments/production/hiera.yaml' =>
      "version: 5\nhierarchy:\n  - name: os\n    path: \"os/%{facts.os.family}.yaml\"\n  - name: common\n    path: common.yaml\n",
    'environments/production/data/common.yaml' =>
      "site::motd: \"hello %{facts.networking.hostname}\"\nsite::ports: [22]\nlookup_options:\n  site::ports:\n    merge: unique\n",
    'environments/production/data/os/Debian.yaml' => "site::ports: [80]\n",
    'environments/production/modules/site/manifests/init.pp' =>
      "class site(String $motd, Array $ports, $extra = lookup('site::extra', undef, undef, 'none')) {\n" \
      "  notify { \"motd=${motd} ports=${ports} extra=${extra} sshkeys=${lookup('sshkeys_core::nothing', undef, undef, 'dflt')}\": }\n}\n",
    'environments/production/modules/site/hiera.yaml' => "version: 5\n",
    'environments/production/modules/site/data/common.yaml' => "site::extra: from module\n",
    'environments/production/manifests/site.pp' => "include site\n",
  }.freeze

  def setup
    skip 'needs Debian\'s puppet and puppet-module-puppetlabs-sshkeys-core' unless File.directory?(SSHKEYS) && system('command -v puppet >/dev/null')
  end

  # Runs `puppet apply` on the scratch code directory and returns its
  # notices and stderr.
  def apply(dir, env)
    cmd = ['puppet', 'apply', '--noop', '--color=false', "--codedir=#{dir}", "--vardir=#{dir}/var", "--logdir=#{dir}/log",
           "--rundir=#{dir}/run", "--publicdir=#{dir}/public", "--hiera_config=#{dir}/hiera.yaml",
           "#{dir}/environments/production/manifests/site.pp"]
    out, err, status = Open3.capture3(env, *cmd)
    assert status.success?, "puppet apply failed: #{out}\n#{err}"
    [out.lines.grep(%r{/Notify\[.*\]/message}).map { |l| l[%r{Notify\[(.*?)\]/message}, 1] }.sort, err]
  end

  def test_a_stock_debian_puppet_hands_every_lookup_off
    Dir.mktmpdir do |dir|
      FILES.each do |path, text|
        FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
        File.write(File.join(dir, path), text)
      end
      base = `puppet config print basemodulepath`.strip
      assert_includes base.split(':'), '/usr/share/puppet/modules', 'Debian\'s default basemodulepath'

      plain, = apply(dir, { 'RUBYOPT' => nil, 'LIBHIERA_HANDOFF' => nil })
      handoff_env = { 'RUBYOPT' => "-I#{ROOT}/ruby/lib -rlibhiera/puppet", 'LIBHIERA_HANDOFF' => '1', 'LIBHIERA_STATS' => '1' }
      ours, err = apply(dir, handoff_env)
      assert_equal 1, plain.size, plain.inspect
      assert_match(/motd=hello \S+ ports=\[80, 22\] extra=from module sshkeys=dflt/, plain.first)
      assert_equal plain, ours

      counters = err[/libhiera hand-off: (\{.*\})/, 1]
      refute_nil counters, err
      warn "stock Debian Puppet, hand-off counters: #{counters}"
      stats = eval(counters) # rubocop:disable Security/Eval -- a Hash#inspect the hand-off printed
      assert_operator stats[:handed_off], :>=, 4, counters
      declined = stats.select { |k, _| k.to_s.start_with?('declined') }
      assert_empty declined, "no lookup went to Puppet: #{counters}"
    end
  end
end
