"""Comet in AI frameworks (spec/frameworks.md).  What every adapter shares and needs no framework: ``actions``
(action ids), ``table`` (the table from parameters), ``chance`` (the deal as chance outcomes), ``utilities`` (and
their bounds), ``text`` and ``tensors`` (what a seat may know).  ``openspiel`` the OpenSpiel game (extra
``[openspiel]``; its observer ``openspiel_observer``, ISMCTS redealing ``openspiel_resample``, playthroughs and bots
``openspiel_play``); ``pettingzoo`` the PettingZoo and Gymnasium environments (extra
``[pettingzoo]``); ``bench`` their steps per second for ``comet bench``.
"""
