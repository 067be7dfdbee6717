"""Comet in AI frameworks (spec/frameworks.md): ``common`` what every adapter shares and needs no
framework (action ids, the deal as chance outcomes, utilities, what a seat may know); ``openspiel`` the
OpenSpiel game (extra ``[openspiel]``); ``pettingzoo`` the PettingZoo and Gymnasium environments (extra
``[pettingzoo]``); ``bench`` their steps per second for ``comet bench``.
"""
