# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'
require 'rbconfig'
require 'libhiera/startup'

# The Puppet Server switch (README, "The hand-off in Puppet Server") in
# Debian's Puppet under MRI: what Puppet Server does in every JRuby instance
# at its start (Puppet::Server::PuppetConfig.initialize_puppet: settings,
# the application context of the `server` run mode, then
# Puppet::ApplicationSupport.configure_indirector_routes('server')), with a
# routes.yaml naming the `libhiera` data_binding terminus and the gem as the
# module `libhiera` in the basemodulepath. Each start runs in a child
# process (the hand-off and the library are per process).
# scripts/test-puppetserver runs the same in a real Puppet Server.
class TestPuppetStartup < Minitest::Test
  include TestSupport

  START = <<~'RUBY'
    require 'puppet'
    require 'json'
    dir = ARGV[0]
    LOGS = []
    Puppet::Util::Log.newdesttype(:libhiera_test) { def handle(msg); LOGS << msg; end }
    Puppet::Util::Log.newdestination(:libhiera_test)
    logs = LOGS
    Puppet.settings.preferred_run_mode = :server
    Puppet.initialize_settings(['--confdir', "#{dir}/conf", '--codedir', "#{dir}/code", '--vardir', "#{dir}/var",
                                '--logdir', "#{dir}/log", '--rundir', "#{dir}/run", '--publicdir', "#{dir}/public"])
    Puppet::Util::Log.level = :info
    Puppet::ApplicationSupport.push_application_context(Puppet::Util::RunMode[:server])
    Puppet::ApplicationSupport.configure_indirector_routes('server')
    out = {
      'puppet_version' => Puppet.version,
      'terminus' => Puppet::DataBinding.indirection.terminus_class.to_s,
      'terminus_class' => Module.instance_method(:name).bind(Puppet::DataBinding.indirection.terminus.class).call,
      'enabled' => defined?(Libhiera::Puppet) ? Libhiera::Puppet.enabled? : false,
      'logs' => logs.map { |l| [l.level.to_s, l.message] }.select { |_, m| m.include?('libhiera') },
    }
    if out['enabled']
      out['path'] = Libhiera::Native.path
      out['version'] = Libhiera::Native.hiera_version
      out['puppet'] = Libhiera::Puppet.puppet_version
      # A compile: its line, and the counters it reports.
      File.write("#{dir}/code/environments/production/manifests/site.pp",
                 "notify { lookup('greeting'): }\nnotify { lookup('absent', undef, undef, 'dflt'): }\n")
      node = Puppet::Node.new('node1.example.com', environment: Puppet.lookup(:environments).get('production'))
      before = Libhiera::Puppet.stats.dup
      logs.clear
      Puppet::Parser::Compiler.compile(node)
      out['compile_logs'] = logs.map { |l| [l.level.to_s, l.message] }.select { |_, m| m.include?('libhiera') }
      out['compile_stats'] = Libhiera::Puppet.stats.to_h { |k, v| [k.to_s, v - before.fetch(k, 0)] }.reject { |_, v| v.zero? }
    end
    puts JSON.generate(out)
  RUBY

  ROUTE = "server:\n  data_binding:\n    terminus: libhiera\n"

  def start(env, routes: ROUTE, module_installed: true)
    Dir.mktmpdir do |dir|
      %w[conf code/modules code/environments/production/manifests code/environments/production/data var log run public]
        .each { |d| FileUtils.mkdir_p(File.join(dir, d)) }
      File.write(File.join(dir, 'conf', 'routes.yaml'), routes) if routes
      File.write(File.join(dir, 'code/environments/production/hiera.yaml'),
                 "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n")
      File.write(File.join(dir, 'code/environments/production/data/common.yaml'), "greeting: hello\n")
      File.symlink(File.join(ROOT, 'ruby'), File.join(dir, 'code/modules/libhiera')) if module_installed
      # The Puppet this test runs with (ruby/test/run: Debian's, or OpenVox 8 by -I).
      puppet_lib = $LOAD_PATH.find { |d| File.file?(File.join(d, 'puppet.rb')) }
      args = puppet_lib ? ['-I', puppet_lib] : []
      out, err, status = Open3.capture3(env, RbConfig.ruby, *args, '-e', START, dir)
      assert status.success?, "the start failed:\n#{out}\n#{err}"
      JSON.parse(out.lines.last)
    end
  end

  def test_the_route_switches_the_hand_off_on_at_start
    r = start({ 'LIBHIERA_HANDOFF' => nil })
    assert r['enabled'], r.inspect
    assert_equal 'libhiera', r['terminus']
    assert_equal 'Puppet::DataBinding::Libhiera', r['terminus_class']
    assert_equal [['info', "libhiera hand-off: on (libhiera #{r['version']} from #{r['path']}, answering as Puppet #{r['puppet']})"]],
                 r['logs']
    assert_equal File.expand_path(ENV.fetch('LIBHIERA_PATH')), File.expand_path(r['path']) if ENV['LIBHIERA_PATH']
    # The compile's line reports the compile's counters.
    stats = r['compile_stats']
    assert_operator stats.fetch('handed_off'), :>, 0
    declined = stats.select { |k, _| k.start_with?('declined_') }
    line = "libhiera hand-off: catalog for node1.example.com in environment production: #{stats['handed_off']} lookups " \
           "answered, #{declined.values.sum} declined#{declined.empty? ? '' : " (#{declined.sort.map { |k, v| "#{k.delete_prefix('declined_')} #{v}" }.join(', ')})"}, " \
           "#{stats.fetch('errors', 0)} errors"
    assert_equal [['info', line]], r['compile_logs']
  end

  def test_libhiera_handoff_off_keeps_it_off
    %w[off No].each do |value|
      r = start({ 'LIBHIERA_HANDOFF' => value })
      refute r['enabled'], value
      assert_equal 'Puppet::DataBinding::Libhiera', r['terminus_class']
      assert_equal [['notice', "libhiera hand-off: off (LIBHIERA_HANDOFF=#{value})"]], r['logs']
    end
  end

  def test_a_missing_library_is_logged_and_puppet_starts
    missing = File.join(Dir.tmpdir, 'libhiera-no-such-dir', 'libhiera.so')
    r = start({ 'LIBHIERA_HANDOFF' => nil, 'LIBHIERA_PATH' => missing })
    refute r['enabled']
    assert_equal 'Puppet::DataBinding::Libhiera', r['terminus_class']
    assert_equal 1, r['logs'].size, r['logs'].inspect
    level, message = r['logs'].first
    assert_equal 'warning', level
    assert message.start_with?("libhiera hand-off: off, it could not start: libhiera: cannot load the shared library (tried #{missing})"),
           message
  end

  def test_without_the_route_nothing_is_loaded
    r = start({ 'LIBHIERA_HANDOFF' => nil }, routes: nil)
    refute r['enabled']
    assert_equal 'hiera', r['terminus']
    assert_empty r['logs']
  end

  def test_the_values_of_libhiera_handoff
    { '1' => :on, 'true' => :on, 'YES' => :on, ' on ' => :on, 'On' => :on,
      '0' => :off, 'false' => :off, 'No' => :off, 'OFF' => :off,
      nil => nil, '' => nil, '2' => nil, 'enabled' => nil }.each do |value, expected|
      if expected.nil?
        assert_nil Libhiera::Startup.switch(value), value.inspect
      else
        assert_equal expected, Libhiera::Startup.switch(value), value.inspect
      end
    end
  end
end
