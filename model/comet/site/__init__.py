"""``comet site``: the rulebook as a static, offline website built from ``spec/``, ``seeds/`` and the model.

``build.py`` writes the pages; ``sources.py`` reads the spec and seed texts; ``divergence.py`` reads
the divergence report(s) by structure; ``witness.py`` plays the stored witness deals under both readings
(the only place play is computed); ``markdown.py`` renders the spec's Markdown with site-internal links;
``html.py`` is the page frame; ``assets/`` holds the stylesheet and the one script.
"""
