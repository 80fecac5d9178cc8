-- What both Neovim test scripts say: one `ok`/`FAIL` line per check on stdout, and the count
-- of failures. Loaded with dofile() from the script's own folder.
local report = { failures = 0 }

function report.say(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

function report.check(ok, what, detail)
  if ok then
    report.say('  ok   ' .. what)
  else
    report.failures = report.failures + 1
    report.say('  FAIL ' .. what .. (detail and (': ' .. detail) or ''))
  end
  return ok
end

return report
