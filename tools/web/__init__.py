"""`necro serve`: a local web board over the one Game API (pip install 'necronomicon[web]')."""
