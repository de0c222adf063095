-- The dissertation's modified Q11 (ch. 5.2 worked example): the nation predicate negated and
-- no threshold, so Hive plans three jobs (supplier join nation, partsupp join that, group-by).
SELECT ps.ps_partkey, round(sum(ps.ps_supplycost * ps.ps_availqty), 2) AS value
FROM tpch.partsupp ps
JOIN tpch.supplier s ON ps.ps_suppkey = s.s_suppkey
JOIN tpch.nation n ON s.s_nationkey = n.n_nationkey
WHERE n.n_name <> 'GERMANY'
GROUP BY ps.ps_partkey
