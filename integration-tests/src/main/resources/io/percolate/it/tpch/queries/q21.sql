-- TPC-H Q21, suppliers who kept orders waiting. EXISTS (another supplier on the order) and
-- NOT EXISTS (another late supplier) become per-order counts of distinct suppliers, all and late.
SELECT s.s_name, count(*) AS numwait
FROM tpch.supplier s
JOIN tpch.lineitem l1 ON s.s_suppkey = l1.l_suppkey
JOIN tpch.orders o ON o.o_orderkey = l1.l_orderkey
JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
JOIN (SELECT l_orderkey AS all_orderkey, count(DISTINCT l_suppkey) AS suppliers
      FROM tpch.lineitem GROUP BY l_orderkey) everyone ON everyone.all_orderkey = l1.l_orderkey
JOIN (SELECT l_orderkey AS late_orderkey, count(DISTINCT l_suppkey) AS late_suppliers
      FROM tpch.lineitem WHERE l_receiptdate > l_commitdate GROUP BY l_orderkey) late
  ON late.late_orderkey = l1.l_orderkey
WHERE o.o_orderstatus = 'F' AND n.n_name = 'SAUDI ARABIA' AND l1.l_receiptdate > l1.l_commitdate
  AND everyone.suppliers > 1 AND late.late_suppliers = 1
GROUP BY s.s_name
ORDER BY numwait DESC, s.s_name
LIMIT 100
