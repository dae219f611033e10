# frozen_string_literal: true

require_relative 'test_helper'
$LOAD_PATH.unshift(File.expand_path('support', __dir__))
require 'puppet_runner'
require 'libhiera/puppet'
require 'open3'

# Custom Hiera 5 backends written in Ruby (Puppet 4 function API, in a
# module's lib/puppet/functions/) inside handed-off compiles: a
# hiera-vault-style `lookup_key`, a hiera-http-style `data_hash` (served
# from a fixture: no network) and the data_dig guide's `data_dig`, beside an
# eyaml level (keys made by `eyaml createkeys`, secrets by `eyaml encrypt`).
# libhiera searches, merges and interpolates; Puppet's own providers run the
# functions from inside libhiera's lookups (the host). The catalog's notices
# must be plain Puppet's, and the hand-off must have answered the lookups
# (handed_off), declining none. Runs under Puppet 7.23 and OpenVox 8
# (ruby/test/run).
class TestPuppetBackends < Minitest::Test
  include TestSupport

  def setup
    skip 'Puppet compiles need fork (MRI)' unless Process.respond_to?(:fork) && RUBY_ENGINE == 'ruby'
    PuppetRunner.boot
    Libhiera::Puppet.accelerate!
  end

  def in_child(handoff: true)
    PuppetRunner.forked do
      handoff ? Libhiera::Puppet.accelerate! : Libhiera::Puppet.decelerate!
      Libhiera::Puppet.stats.clear
      $backend_calls = Hash.new(0)
      [yield, Libhiera::Puppet.stats.dup, $backend_calls.dup]
    end
  end

  def write(dir, files)
    files.each do |path, text|
      FileUtils.mkdir_p(File.dirname(File.join(dir, path)))
      File.write(File.join(dir, path), text)
    end
  end

  def notices(dir, kase, code)
    titles = []
    PuppetRunner.compile(dir, kase, code: code) do |compiler, _|
      compiler.catalog.resources.each { |r| titles << r.title if r.type == 'Notify' }
      compiler.catalog.resources.size
    end
    titles
  end

  # hiera-vault's shape: options (mounts, interpolated by Hiera), a cache of
  # what it read (context.cache), context.not_found, context.explain, and
  # context.interpolate on what it read. The "vault" is a JSON fixture.
  VAULT = <<~RUBY
    Puppet::Functions.create_function(:'acme::vault_lookup') do
      dispatch :vault_lookup do
        param 'Variant[String, Numeric]', :key
        param 'Hash', :options
        param 'Puppet::LookupContext', :context
      end

      def vault_lookup(key, options, context)
        $backend_calls['vault'] += 1 if $backend_calls
        raise ArgumentError, "[hiera-vault] no mounts" unless options['mounts'].is_a?(Array)
        return context.cached_value(key) if context.cache_has_key(key)

        context.explain { "[hiera-vault] Looking up \#{key} in \#{options['mounts'].join(', ')}" }
        store = JSON.parse(File.read(options['fixture']))
        found = options['mounts'].map { |m| store.fetch(m, {}) }.find { |secrets| secrets.key?(key) }
        context.not_found if found.nil? # hiera-vault does not cache misses
        context.cache(key, context.interpolate(found[key]))
      end
    end
  RUBY

  # hiera-http's shape: a data_hash function over `uris`; each location's
  # answer is cached (context.cached_value / context.cache). The "server"
  # is a directory of JSON files named after the URI's path; a missing one
  # is a 404: an empty hash, as hiera-http answers with failure: graceful.
  HTTP = <<~RUBY
    Puppet::Functions.create_function(:'acme::http_data') do
      dispatch :http_data do
        param 'Hash', :options
        param 'Puppet::LookupContext', :context
      end

      def http_data(options, context)
        $backend_calls['http'] += 1 if $backend_calls
        uri = options['uri']
        return context.cached_value(uri) if context.cache_has_key(uri)

        file = File.join(options['server_root'], URI(uri).path)
        data = File.exist?(file) ? JSON.parse(File.read(file)) : {}
        context.cache(uri, data)
      end
    end
  RUBY

  # The data_dig guide's example: the whole dotted key's segments, dug in a
  # nested source.
  DIG = <<~RUBY
    Puppet::Functions.create_function(:'acme::dig_data') do
      dispatch :dig_data do
        param 'Array[Variant[String, Numeric]]', :segments
        param 'Hash', :options
        param 'Puppet::LookupContext', :context
      end

      def dig_data(segments, options, context)
        $backend_calls['dig'] += 1 if $backend_calls
        value = segments.reduce(options['tree']) do |memo, segment|
          case memo
          when Hash then memo.key?(segment) ? memo[segment] : context.not_found
          when Array then segment.is_a?(Integer) && segment < memo.size ? memo[segment] : context.not_found
          else context.not_found
          end
        end
        value
      end
    end
  RUBY

  def self.eyaml(*args)
    out, status = Open3.capture2e('eyaml', *args)
    raise "eyaml #{args.first}: #{out}" unless status.success?

    out
  end

  def repo(dir)
    keys = File.join(dir, 'keys')
    FileUtils.mkdir_p(keys)
    priv = File.join(keys, 'private_key.pkcs7.pem')
    pub = File.join(keys, 'public_key.pkcs7.pem')
    self.class.eyaml('createkeys', "--pkcs7-private-key=#{priv}", "--pkcs7-public-key=#{pub}")
    encrypt = ->(s) { self.class.eyaml('encrypt', '-o', 'string', '-s', s, "--pkcs7-public-key=#{pub}").strip }
    env = 'environments/production'
    {
      'hiera.yaml' => "version: 5\n",
      "#{env}/hiera.yaml" => <<~YAML,
        version: 5
        defaults:
          datadir: data
          data_hash: yaml_data
        hierarchy:
          - name: vault
            lookup_key: acme::vault_lookup
            options:
              mounts: ["%{facts.role}", common]
              fixture: #{dir}/vault.json
          - name: secrets
            lookup_key: eyaml_lookup_key
            path: secrets.eyaml
            options:
              pkcs7_private_key: #{priv}
              pkcs7_public_key: #{pub}
          - name: http
            data_hash: acme::http_data
            uris:
              - "http://config.example/%{facts.role}.json"
              - "http://config.example/common.json"
            options:
              server_root: #{dir}/server
          - name: dig
            data_dig: acme::dig_data
            options:
              tree:
                app:
                  ports: [80, 443]
                  name: shop
          - name: common
            path: common.yaml
      YAML
      'vault.json' => JSON.generate('web' => { 'app::db_password' => 'web-%{facts.role}-pw' },
                                    'common' => { 'app::db_password' => 'common-pw', 'app::token' => 't0ken' }),
      "#{env}/data/secrets.eyaml" => "app::api_key: #{encrypt.call('k3y')}\n" \
                                      "app::greeting: \"hello #{encrypt.call('%{facts.role}')}\"\n",
      'server/web.json' => JSON.generate('app::workers' => 8, 'app::packages' => ['nginx']),
      'server/common.json' => JSON.generate('app::workers' => 2, 'app::packages' => ['curl'], 'app::motd' => 'from http %{facts.role}'),
      "#{env}/data/common.yaml" => "app::packages: [vim]\napp::workers: 1\nlookup_options:\n  app::packages:\n    merge: unique\n",
      "#{env}/modules/acme/lib/puppet/functions/acme/vault_lookup.rb" => VAULT,
      "#{env}/modules/acme/lib/puppet/functions/acme/http_data.rb" => HTTP,
      "#{env}/modules/acme/lib/puppet/functions/acme/dig_data.rb" => DIG,
      "#{env}/modules/app/manifests/init.pp" => <<~PP,
        class app(String $db_password, String $token, String $api_key, String $greeting, Integer $workers,
                  Array $packages, String $motd) {
          notify { "db=${db_password} token=${token} api=${api_key} greeting=${greeting}": }
          notify { "workers=${workers} packages=${packages} motd=${motd}": }
          notify { "port=${lookup('app.ports.1')} name=${lookup('app.name')} app=${lookup('app')}": }
          notify { "missing=${lookup('app::nothing', undef, undef, 'dflt')}": }
        }
      PP
    }
  end

  def test_custom_ruby_backends_and_eyaml_are_answered_by_the_handoff
    skip 'needs eyaml (Debian hiera-eyaml)' unless system('which eyaml > /dev/null 2>&1')
    Dir.mktmpdir do |dir|
      write(dir, repo(dir))
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      puppet, = in_child(handoff: false) { notices(dir, kase, 'include app') }
      ours, st, calls = in_child { notices(dir, kase, 'include app') }
      warn "custom backends under Puppet #{Puppet.version}: #{st.sort.to_h}, function calls #{calls.sort.to_h}"
      assert_equal ['db=web-web-pw token=t0ken api=k3y greeting=hello web',
                    'workers=8 packages=[nginx, curl, vim] motd=from http web',
                    'port=443 name=shop app={ports => [80, 443], name => shop}',
                    'missing=dflt'], puppet
      assert_equal puppet, ours
      # Every lookup answered by libhiera, none declined, and the functions
      # ran (through the host) from inside its lookups.
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
      assert_operator st[:handed_off], :>=, 11, st.inspect
      assert_operator calls['vault'], :>=, 2, calls.inspect
      assert_operator calls['http'], :>=, 2, calls.inspect
      assert_operator calls['dig'], :>=, 3, calls.inspect
    end
  end

  # A function's exception fails the lookup as it fails Puppet's, and the
  # explanation (Puppet's own) has the function's context.explain line.
  def test_a_failing_backend_fails_the_compile_as_in_puppet
    skip 'needs eyaml (Debian hiera-eyaml)' unless system('which eyaml > /dev/null 2>&1')
    Dir.mktmpdir do |dir|
      files = repo(dir)
      files['environments/production/hiera.yaml'] =
        files['environments/production/hiera.yaml'].sub("mounts: [\"%{facts.role}\", common]", 'mounts: broken')
      write(dir, files)
      kase = { 'node' => { 'certname' => 'web01' }, 'facts' => { 'role' => 'web' } }
      run = lambda do
        notices(dir, kase, 'include app')
      rescue StandardError => e
        e.message
      end
      puppet, = in_child(handoff: false, &run)
      ours, st, = in_child(&run)
      assert_includes puppet, '[hiera-vault] no mounts'
      assert_equal puppet.sub(/ at .*\z/, ''), ours.sub(/ at .*\z/, '')
      assert_empty st.select { |k, _| k.to_s.start_with?('declined') }, st.inspect
    end
  end
end
