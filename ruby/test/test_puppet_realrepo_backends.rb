# frozen_string_literal: true

require_relative 'test_helper'
require 'open3'

# The control repo of 14 real public modules (benches/realrepo) with two more
# levels in its environment hierarchy: an eyaml level (keys made by Debian's
# `eyaml createkeys`, secrets by `eyaml encrypt`) and a custom Ruby
# `lookup_key` function written as hiera-vault writes its own (options,
# context.cache, context.explain, context.not_found, context.interpolate),
# in the site's profile module. The end-to-end compile driver
# (benches/compile/driver.rb) compiles each node with plain Puppet and with
# the hand-off and compares the catalogs (resources and their parameters,
# edges, classes); the hand-off's counters must show every lookup handed off
# and none declined.
class TestPuppetRealrepoBackends < Minitest::Test
  ROOT = File.expand_path('../..', __dir__)
  REPO = File.join(ROOT, 'benches', 'realrepo')

  VAULT = <<~RUBY
    Puppet::Functions.create_function(:'profile::vault_lookup') do
      dispatch :vault_lookup do
        param 'Variant[String, Numeric]', :key
        param 'Hash', :options
        param 'Puppet::LookupContext', :context
      end

      def vault_lookup(key, options, context)
        return context.cached_value(key) if context.cache_has_key(key)

        context.explain { "[hiera-vault] Looking up \#{key}" }
        File.open(options['log'], 'a') { |f| f.puts(key) }
        store = JSON.parse(File.read(options['fixture']))
        context.not_found unless store.key?(key)
        context.cache(key, context.interpolate(store[key]))
      end
    end
  RUBY

  def eyaml(*args)
    out, status = Open3.capture2e('eyaml', *args)
    raise "eyaml #{args.first}: #{out}" unless status.success?

    out
  end

  # benches/realrepo copied to `dir`, with the two levels added.
  def prepare(dir)
    FileUtils.cp_r(Dir.glob("#{REPO}/*"), dir)
    env = File.join(dir, 'environments', 'production')
    keys = File.join(dir, 'keys')
    FileUtils.mkdir_p(keys)
    priv = File.join(keys, 'private_key.pkcs7.pem')
    pub = File.join(keys, 'public_key.pkcs7.pem')
    eyaml('createkeys', "--pkcs7-private-key=#{priv}", "--pkcs7-public-key=#{pub}")
    encrypt = ->(s) { eyaml('encrypt', '-o', 'string', '-s', s, "--pkcs7-public-key=#{pub}").strip }
    hiera = File.read(File.join(env, 'hiera.yaml'))
    levels = <<~YAML
      - name: 'Secrets (eyaml)'
        lookup_key: eyaml_lookup_key
        path: 'secrets/%{facts.role}.eyaml'
        options:
          pkcs7_private_key: #{priv}
          pkcs7_public_key: #{pub}
      - name: 'Vault'
        lookup_key: profile::vault_lookup
        options:
          fixture: #{dir}/vault.json
          log: #{dir}/vault.log
    YAML
    hiera = hiera.sub("  - name: 'Role per OS family'", "#{levels.gsub(/^/, '  ')}  - name: 'Role per OS family'")
    raise 'hiera.yaml not as expected' unless hiera.include?('Vault')

    File.write(File.join(env, 'hiera.yaml'), hiera)
    FileUtils.mkdir_p(File.join(env, 'data', 'secrets'))
    File.write(File.join(env, 'data', 'secrets', 'webserver.eyaml'),
               "profile::base::banner: \"#{encrypt.call('Authorized use only: %{facts.networking.domain}')}\"\n" \
               "profile::webserver::log_rotate: 30\n")
    File.write(File.join(env, 'data', 'secrets', 'database.eyaml'),
               "profile::base::banner: #{encrypt.call('db banner')}\n")
    File.write(File.join(dir, 'vault.json'),
               JSON.generate('profile::database::nofile' => 262_144,
                             'profile::base::extra_packages' => ['vault-agent'],
                             'profile::base::admins' => { 'ops' => { 'shell' => '/bin/zsh', 'from' => '%{facts.role}' } }))
    profile_lib = File.join(env, 'site', 'profile', 'lib', 'puppet', 'functions', 'profile')
    FileUtils.mkdir_p(profile_lib)
    File.write(File.join(profile_lib, 'vault_lookup.rb'), VAULT)
  end

  def test_real_modules_with_eyaml_and_a_ruby_lookup_key_compile_as_in_puppet
    skip 'Puppet compiles need fork (MRI)' unless RUBY_ENGINE == 'ruby'
    skip 'needs eyaml (Debian hiera-eyaml)' unless system('which eyaml > /dev/null 2>&1')
    Dir.mktmpdir do |dir|
      prepare(dir)
      json = File.join(dir, 'result.json')
      cmd = [RbConfig.ruby, File.join(ROOT, 'benches', 'compile', 'driver.rb'), '--repo', dir, '--rounds', '1',
             '--warm-rounds', '0', '--json', json, '--libhiera-so', ENV.fetch('LIBHIERA_PATH')]
      out, status = Open3.capture2e(*cmd)
      assert status.success?, out
      result = JSON.parse(File.read(json))
      counters = result['modes']['handoff']['handoff_counters_per_compile']
      warn "real modules with eyaml and a Ruby lookup_key under Puppet #{result['puppet']}: " \
           "#{result['nodes'].size} nodes, catalogs identical: #{result['catalogs_identical']}, " \
           "hand-off counters per compile #{counters}"
      assert result['catalogs_identical'], out
      # The function ran (in both modes: Puppet's, and through the host).
      assert_includes File.read(File.join(dir, 'vault.log')), 'profile::database::nofile'
      assert_equal 8, result['nodes'].size, out
      assert_empty counters.select { |k, _| k.to_s.start_with?('declined') }, counters.inspect
      assert_operator counters['handed_off'].to_f, :>=, 100, counters.inspect
    end
  end
end
