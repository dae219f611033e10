# frozen_string_literal: true

require 'puppet'

# Runs Hiera 5 cases through Puppet's own `lookup()` inside a real catalog
# compile, as the recorder does (../shared/oracle/record): isolated
# confdir/vardir/codedir, Puppet 7's defaults, the case's node, facts,
# trusted data, server facts and variables, every query the first lookup of
# a fresh LookupAdapter. Each case runs in a forked child.
module PuppetRunner
  NOT_FOUND = Object.new.freeze

  module_function

  def boot
    return if @tmp

    @tmp = Dir.mktmpdir('libhiera-puppet-')
    at_exit { FileUtils.rm_rf(@tmp) }
    %w[conf var code log run public empty_modules].each { |d| FileUtils.mkdir_p(File.join(@tmp, d)) }
    Puppet.initialize_settings(['--confdir', File.join(@tmp, 'conf'), '--vardir', File.join(@tmp, 'var'),
                                '--codedir', File.join(@tmp, 'code'), '--logdir', File.join(@tmp, 'log'),
                                '--rundir', File.join(@tmp, 'run'), '--publicdir', File.join(@tmp, 'public'),
                                '--basemodulepath', File.join(@tmp, 'empty_modules'),
                                '--environmentpath', File.join(@tmp, 'code')])
    # Puppet 7's defaults, stated; under Puppet 8 (OpenVox 8, ruby/test/run
    # puts it first on the load path) Puppet 8's own, as record-p8 does.
    unless puppet8?
      Puppet[:strict] = :warning
      Puppet[:strict_variables] = false
    end
    @default_strict = Puppet[:strict]
    Puppet[:data_binding_terminus] = 'hiera'
    Puppet::Util::Log.level = :err
  end

  # Whether this is Puppet 8 (OpenVox 8).
  def puppet8?
    Puppet.version.to_i >= 8
  end

  # A module directory holding the gem as the Puppet module `libhiera`
  # (its functions live in lib/puppet/functions/libhiera/).
  def gem_modules
    dir = File.join(@tmp, 'gem_modules')
    unless File.exist?(File.join(dir, 'libhiera'))
      FileUtils.mkdir_p(dir)
      File.symlink(File.expand_path('../..', __dir__), File.join(dir, 'libhiera'))
    end
    dir
  end

  # Yields inside a compile of `kase` in `dir`: (compiler, topscope), with
  # the case's `settings.strict` (else the Puppet's default).
  # `modules`: module directories besides the environment's, after the
  # case's `settings.basemodulepath` (which is also Puppet's basemodulepath,
  # for `$basemodulepath` in environment.conf), as the recorder sets them.
  def compile(dir, kase, code: 'undef', modules: [])
    env_name = (kase['environment'] || 'production').to_s
    node_spec = kase['node'] || {}
    certname = node_spec['certname']
    facts = Marshal.load(Marshal.dump(kase['facts'] || {}))
    envdir = File.join(dir, 'environments')
    Puppet[:strict] = ((kase['settings'] || {})['strict'] || @default_strict).to_sym
    base = ((kase['settings'] || {})['basemodulepath'] || []).map { |d| File.join(dir, d) }
    Puppet[:basemodulepath] = base.empty? ? File.join(@tmp, 'empty_modules') : base.join(File::PATH_SEPARATOR)
    modules = base + modules
    Puppet[:hiera_config] = File.join(dir, 'hiera.yaml')
    Puppet[:environment] = env_name
    Puppet[:code] = code
    loader = if File.directory?(File.join(envdir, env_name))
               Puppet::Environments::Directories.new(envdir, modules)
             else
               Puppet::Environments::Static.new(Puppet::Node::Environment.create(env_name.to_sym, modules))
             end
    Puppet.override({ environments: loader }, 'libhiera test') do
      env = loader.get!(env_name)
      Puppet.override({ current_environment: env }, 'libhiera test env') do
        node = Puppet::Node.new(certname || facts['clientcert'] || facts['fqdn'] || 'oracle.node', environment: env)
        node.fact_merge(Puppet::Node::Facts.new(node.name, facts))
        node.add_server_facts(Marshal.load(Marshal.dump(kase['server_facts']))) if kase['server_facts']
        trusted = if certname
                    Puppet::Context::TrustedInformation.new('remote', certname, node_spec['trusted_extensions'] || {}, {})
                  else
                    Puppet::Context::TrustedInformation.local(node)
                  end
        compiler = Puppet.override({ trusted_information: trusted }, 'libhiera test trusted') { Puppet::Parser::Compiler.new(node) }
        compiler.compile do |catalog|
          (kase['variables'] || {}).each { |k, v| compiler.topscope.setvar(k.to_s, Marshal.load(Marshal.dump(v))) }
          yield compiler, compiler.topscope
          catalog
        end
      end
    end
  end

  # The outcome of every query of a case, in the recorder's terms (values
  # as Ruby objects).
  def run_case(dir, kase)
    # The recorder's working directory: the case root (eyaml's relative key paths).
    Dir.chdir(dir) { run_case_here(dir, kase) }
  end

  # [run_case], in the working directory it has.
  def run_case_here(dir, kase)
    results = nil
    compile(dir, kase) do |compiler, scope|
      results = kase['queries'].map do |q|
        Puppet::Pops::Lookup::LookupAdapter.clear(compiler)
        opts = {}
        opts['merge'] = q['merge'] if q.key?('merge')
        opts['default_value'] = q['default'] if q.key?('default')
        begin
          value = if q.key?('default')
                    scope.call_function('lookup', [q['key'], opts])
                  else
                    scope.call_function('lookup', [q['key'], opts]) { |_name| NOT_FOUND }
                  end
          value.equal?(NOT_FOUND) ? { 'not_found' => true } : { 'value' => value }
        rescue StandardError, SystemStackError => e
          { 'error' => e.message.gsub("#{dir}/", '').gsub(dir, '.') }
        end
      end
    end
    results
  end

  # Runs `block` in a forked child; returns what it returned (Marshal).
  def forked
    rd, wr = IO.pipe
    pid = fork do
      rd.close
      begin
        Marshal.dump([:ok, yield], wr)
      rescue Exception => e # rubocop:disable Lint/RescueException
        Marshal.dump([:error, "#{e.class}: #{e.message}\n#{e.backtrace&.first(8)&.join("\n")}"], wr)
      end
      wr.close
      exit!(0)
    end
    wr.close
    status, value = Marshal.load(rd.read)
    rd.close
    Process.wait(pid)
    raise value if status == :error

    value
  end
end
