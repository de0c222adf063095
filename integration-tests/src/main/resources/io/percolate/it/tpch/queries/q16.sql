-- TPC-H Q16, parts/supplier relationship; NOT IN becomes an anti join (outer join, IS NULL).
SELECT p.p_brand, p.p_type, p.p_size, count(DISTINCT ps.ps_suppkey) AS supplier_cnt
FROM tpch.partsupp ps
JOIN tpch.part p ON p.p_partkey = ps.ps_partkey
LEFT OUTER JOIN (SELECT s_suppkey FROM tpch.supplier WHERE s_comment LIKE '%Customer%Complaints%') bad
  ON ps.ps_suppkey = bad.s_suppkey
WHERE bad.s_suppkey IS NULL AND p.p_brand <> 'Brand#45' AND p.p_type NOT LIKE 'MEDIUM POLISHED%'
  AND p.p_size IN (49, 14, 23, 45, 19, 3, 36, 9)
GROUP BY p.p_brand, p.p_type, p.p_size
ORDER BY supplier_cnt DESC, p.p_brand, p.p_type, p.p_size
