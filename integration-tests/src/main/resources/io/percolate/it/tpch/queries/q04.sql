-- TPC-H Q4, order priority checking; EXISTS written as a left semi join.
SELECT o.o_orderpriority, count(*) AS order_count
FROM tpch.orders o
LEFT SEMI JOIN (SELECT l_orderkey FROM tpch.lineitem WHERE l_commitdate < l_receiptdate) late
  ON o.o_orderkey = late.l_orderkey
WHERE o.o_orderdate >= DATE '1993-07-01' AND o.o_orderdate < DATE '1993-10-01'
GROUP BY o.o_orderpriority
ORDER BY o.o_orderpriority
