-- TPC-DS query 52 (one manager's November 2000 sales by brand), in our HiveQL.
SELECT dt.d_year, i.i_brand_id AS brand_id, i.i_brand AS brand, sum(ss.ss_ext_sales_price) AS ext_price
FROM tpcds.date_dim dt
JOIN tpcds.store_sales ss ON dt.d_date_sk = ss.ss_sold_date_sk
JOIN tpcds.item i ON ss.ss_item_sk = i.i_item_sk
WHERE i.i_manager_id = 1 AND dt.d_moy = 11 AND dt.d_year = 2000
GROUP BY dt.d_year, i.i_brand, i.i_brand_id
ORDER BY dt.d_year, ext_price DESC, brand_id
LIMIT 100
