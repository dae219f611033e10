Puppet::Functions.create_function(:'fn_rb::data') do
  def data()
    { 'fn_rb::a' => 'ruby %{facts.role}', 'fn_rb::list' => ['from fn_rb'] }
  end
end
