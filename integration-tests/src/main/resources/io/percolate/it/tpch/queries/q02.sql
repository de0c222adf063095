-- TPC-H Q2, minimum cost supplier; the correlated minimum becomes a per-part minimum over
-- European suppliers, joined back (two independent branches: a tree).
SELECT s.s_acctbal, s.s_name, n.n_name, p.p_partkey, p.p_mfgr, s.s_address, s.s_phone, s.s_comment
FROM tpch.part p
JOIN tpch.partsupp ps ON p.p_partkey = ps.ps_partkey
JOIN tpch.supplier s ON s.s_suppkey = ps.ps_suppkey
JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
JOIN tpch.region r ON n.n_regionkey = r.r_regionkey
JOIN (SELECT ps2.ps_partkey AS min_partkey, min(ps2.ps_supplycost) AS min_cost
      FROM tpch.partsupp ps2
      JOIN tpch.supplier s2 ON s2.s_suppkey = ps2.ps_suppkey
      JOIN tpch.nation n2 ON s2.s_nationkey = n2.n_nationkey
      JOIN tpch.region r2 ON n2.n_regionkey = r2.r_regionkey
      WHERE r2.r_name = 'EUROPE'
      GROUP BY ps2.ps_partkey) m ON m.min_partkey = p.p_partkey AND ps.ps_supplycost = m.min_cost
WHERE p.p_size = 15 AND p.p_type LIKE '%BRASS' AND r.r_name = 'EUROPE'
ORDER BY s.s_acctbal DESC, n.n_name, s.s_name, p.p_partkey
LIMIT 100
