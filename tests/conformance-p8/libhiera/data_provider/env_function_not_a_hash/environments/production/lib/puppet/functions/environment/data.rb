Puppet::Functions.create_function(:'environment::data') do
  def data()
    ['not', 'a', 'hash']
  end
end
