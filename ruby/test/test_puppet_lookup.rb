# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'

# A real `puppet lookup` (Debian's puppet 7.23, in its own processes, with an
# isolated confdir/vardir/codedir as scripts/record-explain runs it) on the
# example control repo, once as it is (yaml_data) and once with every
# hiera.yaml using the gem's `libhiera::yaml_data` (the gem's directory on
# the modulepath as the Puppet module `libhiera`): every key of
# examples/keys.txt must print the same value. Then with the hand-off
# (`RUBYOPT=-rlibhiera/puppet LIBHIERA_HANDOFF=1`) for a few keys.
class TestPuppetLookup < Minitest::Test
  include TestSupport

  GEM = File.expand_path('..', __dir__)

  def setup
    skip 'puppet is not installed' unless system('command -v puppet >/dev/null 2>&1')
  end

  def copy_example(to, function)
    FileUtils.cp_r(File.join(EXAMPLES, '.'), to)
    Dir.glob(File.join(to, '**', 'hiera.yaml')).each do |f|
      File.write(f, File.read(f).gsub(/\byaml_data\b/, function))
    end
  end

  # [key, env] pairs run two at a time; returns {[repo, key] => [status, stdout, stderr]}.
  def puppet_lookups(jobs, tmp)
    queue = Queue.new
    jobs.each { |j| queue << j }
    results = {}
    lock = Mutex.new
    Array.new(2) do |w|
      Thread.new do
        loop do
          repo, key, env = queue.pop(true)
          t = File.join(tmp, "run#{w}")
          cmd = ['puppet', 'lookup', '--confdir', "#{t}/c", '--vardir', "#{t}/v", '--codedir', "#{t}/code",
                 '--logdir', "#{t}/l", '--rundir', "#{t}/r", '--hiera_config', File.join(repo, 'hiera.yaml'),
                 '--environmentpath', File.join(repo, 'environments'), '--basemodulepath', File.join(tmp, 'modules'),
                 '--node', 'web01.example.com', '--facts', File.join(repo, 'facts.yaml'), '--render-as', 'json', key]
          out, err, st = Open3.capture3({ 'LIBHIERA_PATH' => Libhiera.library_path }.merge(env || {}), *cmd, chdir: repo)
          lock.synchronize { results[[repo, key, env]] = [st.exitstatus, out, err] }
        end
      rescue ThreadError
        nil # the queue is empty
      end
    end.each(&:join)
    results
  end

  def test_puppet_lookup_with_the_gem_functions_gives_the_yaml_data_values
    keys = File.readlines(File.join(EXAMPLES, 'keys.txt'), chomp: true).reject(&:empty?)
    Dir.mktmpdir do |tmp|
      FileUtils.mkdir_p(File.join(tmp, 'modules'))
      File.symlink(GEM, File.join(tmp, 'modules', 'libhiera'))
      stock = File.join(tmp, 'stock')
      ours = File.join(tmp, 'ours')
      copy_example(stock, 'yaml_data')
      copy_example(ours, 'libhiera::yaml_data')
      handoff = { 'RUBYOPT' => "-I#{File.join(GEM, 'lib')} -rlibhiera/puppet", 'LIBHIERA_HANDOFF' => '1', 'LIBHIERA_STATS' => '1' }
      handoff_keys = %w[ntp::servers profile::base::users profile::web::settings.listen.1]
      jobs = keys.flat_map { |k| [[stock, k, nil], [ours, k, nil]] } + handoff_keys.map { |k| [stock, k, handoff] }
      results = puppet_lookups(jobs, tmp)
      keys.each do |key|
        want = results[[stock, key, nil]]
        got = results[[ours, key, nil]]
        assert_includes [0, 1], want[0], "puppet lookup #{key} (yaml_data): #{want[2]}"
        assert_equal want[0..1], got[0..1], "puppet lookup #{key} with libhiera::yaml_data: #{got[2]}"
      end
      found = keys.count { |k| results[[stock, k, nil]][0].zero? }
      assert_operator found, :>=, keys.size - 1
      handoff_keys.each do |key|
        got = results[[stock, key, handoff]]
        assert_equal results[[stock, key, nil]][0..1], got[0..1], "puppet lookup #{key} with the hand-off: #{got[2]}"
        assert_match(/libhiera hand-off: \{.*:handed_off=>1/, got[2], 'the lookup was handed off')
      end
      warn "puppet lookup: #{keys.size} keys equal with libhiera::yaml_data and yaml_data, #{handoff_keys.size} with the hand-off"
    end
  end
end
