-- Every request a new payment: a key never used before.
dofile(os.getenv("BENCH_DIR") .. "/lua/common.lua")
local n = 0

request = function()
  n = n + 1
  return payment("new-" .. run .. "-" .. tid .. "-" .. n)
end
