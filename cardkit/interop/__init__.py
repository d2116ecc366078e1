"""Any cardkit engine as a research environment: PettingZoo's AEC API (:mod:`cardkit.interop.pettingzoo`)
and an OpenSpiel game (:mod:`cardkit.interop.openspiel`), for reinforcement learning and game AI work.

Both adapters read an engine only through the typed protocol (:mod:`cardkit.rules.protocol`) and share
one table (:mod:`cardkit.interop.table`): the action space, the observation, the rewards and the deal.
They are optional extras (``pip install 'cardkit[rl]'``); importing this package needs neither library.
"""
