"""Work past one core and one machine: ``runner`` maps pure work units over this process, local worker
processes or a Dask cluster (extra ``[study]``), results always in unit order."""
